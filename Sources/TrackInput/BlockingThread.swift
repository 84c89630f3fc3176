import TrackThreads

/// Runs blocking I/O on a thread of its own, so that Swift's cooperative threads are never blocked.
public enum BlockingThread {
    /// Runs `body` on a new thread and waits for it to return. Cancelling the calling task stops the
    /// `StopSignal` that `body` receives; `body` is expected to return soon after.
    public static func run<Result: Sendable>(
        name: String, _ body: @escaping @Sendable (StopSignal) throws -> Result
    ) async throws -> Result {
        let signal = StopSignal()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, Error>) in
                do {
                    try DetachedThread.start(name: name, stackSize: 1 << 20) {
                        continuation.resume(with: Swift.Result { try body(signal) })
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            signal.stop()
        }
    }
}
