#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CThreadName

/// A thread of the system's own (POSIX threads) for blocking work, outside Swift's cooperative threads: what
/// Foundation's `Thread` gave, without the full Foundation.
public enum DetachedThread {
    /// Starts `body` on a new detached thread named `name` (its first 15 bytes: what Linux keeps), with a stack of
    /// `stackSize` bytes (`nil` for the system's default); throws when the system cannot start a thread.
    public static func start(name: String, stackSize: Int? = nil,
                             _ body: @escaping @Sendable () -> Void) throws(DetachedThreadError) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        let start = Unmanaged.passRetained(Start(name: name, body: body))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { context in
            let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
            _ = trackd_thread_setname(start.name)
            start.body()
            return nil
        }, start.toOpaque())
        guard result == 0 else {
            start.release()
            throw .cannotStart(name: name, code: result)
        }
    }

    /// What the new thread runs, handed over as one retained object.
    private final class Start {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            // Linux keeps 15 bytes of a thread's name; a longer one is refused whole.
            var bytes = Array(name.utf8.prefix(15))
            while String(validating: bytes, as: UTF8.self) == nil { bytes.removeLast() }
            self.name = String(decoding: bytes, as: UTF8.self)
            self.body = body
        }
    }
}
