/// The schema's steps, applied in order, each once, each in its own transaction; which were applied is kept in the
/// table `grdb_migrations` (the name and layout GRDB's migrator used, so that every existing log reads the same).
public struct DatabaseMigrator: Sendable {
    private var steps: [(identifier: String, migrate: @Sendable (Database) throws -> Void)] = []

    public init() {}

    /// The identifiers of the registered steps, in order.
    public var migrations: [String] { steps.map(\.identifier) }

    /// Adds a step.
    public mutating func registerMigration(_ identifier: String, migrate: @escaping @Sendable (Database) throws -> Void) {
        precondition(!migrations.contains(identifier), "migration '\(identifier)' registered twice")
        steps.append((identifier, migrate))
    }

    /// Applies the steps the database lacks. Foreign keys are checked at the end of each step rather than during
    /// it (a step may rebuild a table); a step that leaves a violation is rolled back.
    public func migrate(_ writer: any DatabaseWriter) throws {
        try migrate(writer, upTo: nil)
    }

    /// Applies the steps the database lacks up to and including `last` (all of them for `nil`).
    public func migrate(_ writer: any DatabaseWriter, upTo last: String?) throws {
        var wanted = steps
        if let last {
            guard let index = wanted.firstIndex(where: { $0.identifier == last }) else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "no migration '\(last)'")
            }
            wanted = Array(wanted[...index])
        }
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            let applied = try appliedIdentifiers(db)
            for step in wanted where !applied.contains(step.identifier) {
                let foreignKeys = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
                if foreignKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
                defer { if foreignKeys { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
                try db.inTransaction(.immediate) {
                    try step.migrate(db)
                    if foreignKeys, let violation = try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") {
                        throw DatabaseError(resultCode: .SQLITE_CONSTRAINT,
                                            message: "migration '\(step.identifier)' left a foreign key violation "
                                                + "in table \((try? violation[databaseValue: "table"]) ?? .null)")
                    }
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)",
                                   arguments: [step.identifier])
                    return .commit
                }
            }
        }
    }

    /// The registered steps the database has, in order.
    public func appliedMigrations(_ db: Database) throws -> [String] {
        let applied = try appliedIdentifiers(db)
        return migrations.filter(applied.contains)
    }

    /// Every step identifier the database records, registered here or not.
    public func appliedIdentifiers(_ db: Database) throws -> Set<String> {
        guard try db.tableExists("grdb_migrations") else { return [] }
        return Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
    }

    /// Whether the database records a step this migrator does not know (it was made by a newer program).
    public func hasBeenSuperseded(_ db: Database) throws -> Bool {
        !(try appliedIdentifiers(db)).subtracting(migrations).isEmpty
    }
}
