/// A database that can be read and written: a `DatabaseQueue` (one connection) or a `DatabasePool` (a writer and a
/// reader, for WAL files).
public protocol DatabaseWriter: Sendable {
    /// Runs `body` in a read transaction (a consistent view), blocking.
    func read<T>(_ body: (Database) throws -> T) throws -> T
    /// Runs `body` in a read transaction, suspending.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T
    /// Runs `body` with the writing connection, outside any transaction, blocking.
    func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T
    /// Runs `body` with the writing connection, outside any transaction, suspending.
    func writeWithoutTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T
}

extension DatabaseWriter {
    /// Runs `body` in an immediate write transaction, committed when it returns, rolled back when it throws.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }
}

extension DatabaseWriter {
    /// Runs `body` in an immediate write transaction, suspending; committed when it returns, rolled back when it
    /// throws.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }
}

extension Database {
    /// Runs `body` in a deferred transaction that only reads; ended (rolled back) whatever happens.
    func readTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        var result: T?
        try inTransaction(.deferred) {
            result = try body(self)
            return .rollback
        }
        return result!
    }
}
