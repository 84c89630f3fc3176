/// How connections are opened.
public struct Configuration: Sendable {
    /// Open the file read-only.
    public var readonly = false
    /// Open the file read-only as a file nothing changes (SQLite's `immutable`): no locks, and no `-wal` or `-shm`
    /// opened or made. Only for a file whose every commit is in it (no `-wal` beside it).
    public var immutable = false
    /// How long a statement waits for another connection's lock before it fails with `SQLITE_BUSY`, seconds;
    /// `nil` fails at once.
    public var busyTimeout: Double?
    /// Runs on every new connection before it is used (pragmas).
    public var prepareDatabase: (@Sendable (Database) throws -> Void)?

    public init() {}
}
