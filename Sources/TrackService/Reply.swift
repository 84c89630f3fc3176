import Synchronization
import TrackCore

/// The answer to a request that another task carries out: resumed exactly once — by `send`, or, if the request is
/// dropped unanswered (the tracker shut down), with an error when the last reference goes.
public final class Reply<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Result<Value, RPCError>, Never>?>

    private init(_ continuation: CheckedContinuation<Result<Value, RPCError>, Never>) {
        self.continuation = Mutex(continuation)
    }

    deinit {
        send(.failure(.unavailable("trackd is shutting down; the request was not carried out")))
    }

    /// Answers; later calls do nothing.
    public func send(_ result: Result<Value, RPCError>) {
        continuation.withLock { pending in
            pending?.resume(returning: result)
            pending = nil
        }
    }

    /// Hands a new reply to `deliver` (which passes it on to whoever answers) and waits for the answer.
    public static func wait(_ deliver: (Reply<Value>) -> Void) async -> Result<Value, RPCError> {
        await withCheckedContinuation { continuation in
            deliver(Reply(continuation))
        }
    }
}
