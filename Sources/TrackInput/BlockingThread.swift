import Foundation

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
                let thread = Thread {
                    continuation.resume(with: Swift.Result { try body(signal) })
                }
                thread.name = name
                thread.stackSize = 1 << 20
                thread.start()
            }
        } onCancel: {
            signal.stop()
        }
    }
}
