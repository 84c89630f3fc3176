#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CThreadName

/// The one way trackd starts a POSIX thread: named, with the stack asked for, detached or to be joined.
enum ThreadStart {
    /// Starts `body` on a new thread named `name` (its first 15 bytes: what Linux keeps), with a stack of
    /// `stackSize` bytes (`nil` for the system's default), detached or joinable; returns its id.
    static func spawn(name: String, stackSize: Int?, detached: Bool,
                      _ body: @escaping @Sendable () -> Void) throws(ThreadStartError) -> pthread_t {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(detached ? PTHREAD_CREATE_DETACHED : PTHREAD_CREATE_JOINABLE))
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
        return thread
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
