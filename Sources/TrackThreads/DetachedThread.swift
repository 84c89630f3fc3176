/// A thread of the system's own (POSIX threads) for blocking work, outside Swift's cooperative threads: what
/// Foundation's `Thread` gave, without the full Foundation. Nobody waits for it; it ends when `body` returns.
public enum DetachedThread {
    /// Starts `body` on a new detached thread named `name` (its first 15 bytes: what Linux keeps), with a stack of
    /// `stackSize` bytes (`nil` for the system's default); throws when the system cannot start a thread.
    public static func start(name: String, stackSize: Int? = nil,
                             _ body: @escaping @Sendable () -> Void) throws(ThreadStartError) {
        _ = try ThreadStart.spawn(name: name, stackSize: stackSize, detached: true, body)
    }
}
