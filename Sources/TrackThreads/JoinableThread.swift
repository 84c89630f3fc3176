#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of the system's own that its owner waits for: `join` returns once `body` has returned. Joined
/// exactly once, by its owner.
public final class JoinableThread: Sendable {
    private let id: ThreadID

    /// Starts `body` on a new thread named `name` (its first 15 bytes: what Linux keeps), with a stack of
    /// `stackSize` bytes (`nil` for the system's default); throws when the system cannot start a thread.
    public init(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) throws(ThreadStartError) {
        id = ThreadID(value: try ThreadStart.spawn(name: name, stackSize: stackSize, detached: false, body))
    }

    /// Waits until the thread has ended. Called once; the owner makes `body` return (a flag it reads, a socket it
    /// closes) before or while it waits.
    public func join() {
        _ = pthread_join(id.value, nil)
    }

    /// A thread's id, handed between threads (`join` is called once).
    private struct ThreadID: @unchecked Sendable {
        let value: pthread_t
    }
}
