#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a thread could not be started.
public enum ThreadStartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `pthread_create` refused: the thread's name and the error number (EAGAIN: too many threads, or no memory).
    case cannotStart(name: String, code: Int32)

    /// What went wrong.
    public var description: String {
        switch self {
        case .cannotStart(let name, let code):
            "cannot start the thread \(name): \(String(cString: strerror(code)))"
        }
    }
}
