import Dispatch

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
    func async<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { [self] in
                continuation.resume(with: Result { try body(self.database) })
            }
        }
    }
}
