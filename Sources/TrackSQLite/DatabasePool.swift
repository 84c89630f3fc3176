/// A database file in WAL mode with two connections: one that writes and one that reads, so that a read sees the
/// last commit without waiting for a write in progress.
public final class DatabasePool: DatabaseWriter {
    private let writer: SerializedDatabase
    private let reader: SerializedDatabase

    /// Opens the file at `path` (created if needed) and turns its WAL mode on.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        writer = try SerializedDatabase(path: path, configuration: configuration, label: "sqlite.writer")
        try writer.sync { db in
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            guard mode?.lowercased() == "wal" else {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: "could not turn on WAL mode (\(mode ?? "?"))")
            }
        }
        var readerConfiguration = configuration
        let prepare = configuration.prepareDatabase
        readerConfiguration.prepareDatabase = { db in
            try prepare?(db)
            try db.execute(sql: "PRAGMA query_only = ON")
        }
        reader = try SerializedDatabase(path: path, configuration: readerConfiguration, label: "sqlite.reader")
    }

    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try reader.sync { db in try db.readTransaction(body) }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await reader.async { db in try db.readTransaction(body) }
    }

    public func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.sync(body)
    }

    public func writeWithoutTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writer.async(body)
    }
}
