#if canImport(Glibc)
import Glibc
#endif

/// A file or folder whose mode trackd cannot set.
public enum FileModeError: Error, CustomStringConvertible, Equatable {
    case cannot(String, String, Int32)
    case notAFolder(String)

    public var description: String {
        switch self {
        case .cannot(let step, let path, let error): "cannot \(step) \(path): \(String(cString: strerror(error)))"
        case .notAFolder(let path): "\(path) is not a folder"
        }
    }
}
