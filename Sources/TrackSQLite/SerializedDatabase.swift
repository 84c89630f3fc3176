import Dispatch
import Synchronization

/// One connection and the serial queue that gives it to one body at a time, from synchronous and async callers.
final class SerializedDatabase: @unchecked Sendable {
    // The connection is touched only on `queue`: that is what makes the class safe to share.
    private let database: Database
    private let queue: DispatchQueue

    init(path: String, configuration: Configuration, label: String) throws {
        database = try Database(path: path, configuration: configuration)
        queue = DispatchQueue(label: label)
    }

    /// Runs `body` with the connection, blocking the caller until it is done.
    func sync<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.sync { try body(database) }
    }

    /// Runs `body` with the connection on its queue, suspending the caller (no thread of the cooperative pool waits
    /// for the disk).
    ///
    /// The queued block lets go of `body` and of this object before it resumes the caller: the caller may release
    /// the database right after, and its last release closes the connection (a checkpoint into the file), which
    /// must happen then, on the caller's side, not a moment later on the queue's thread.
    func async<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let pending = Mutex<(@Sendable (Database) throws -> T)?>(body)
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { [unowned self] in
                let result = Result<T, any Error> {
                    guard let body = pending.withLock({ $0.take() }) else { preconditionFailure("run twice") }
                    return try body(self.database)
                }
                continuation.resume(with: result)
            }
        }
    }
}
