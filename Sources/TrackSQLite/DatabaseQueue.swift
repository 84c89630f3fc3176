/// One connection to a database file, used by one body at a time.
public final class DatabaseQueue: DatabaseWriter {
    private let connection: SerializedDatabase

    /// Opens the file at `path` (created if needed unless `configuration.readonly`).
    public init(path: String, configuration: Configuration = Configuration()) throws {
        connection = try SerializedDatabase(path: path, configuration: configuration, label: "sqlite.queue")
    }

    /// Closes the connection now rather than when the queue is released.
    public func close() throws {
        try connection.sync { db in db.close() }
    }

    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try connection.sync { db in try db.readTransaction(body) }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await connection.async { db in try db.readTransaction(body) }
    }

    public func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try connection.sync(body)
    }

    public func writeWithoutTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await connection.async(body)
    }
}
