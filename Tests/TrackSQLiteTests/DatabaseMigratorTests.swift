import TestSupport
import Testing
import TrackSQLite

@Suite struct DatabaseMigratorTests {
    private func migrator(_ count: Int) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for step in 1...count {
            migrator.registerMigration("v\(step)") { db in try db.execute(sql: "CREATE TABLE t\(step) (v INTEGER)") }
        }
        return migrator
    }

    @Test func appliesEachStepOnceAndRecordsItWhereGRDBDid() throws {
        let folder = try TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.file("steps.sqlite"))
        try migrator(2).migrate(queue)
        try migrator(3).migrate(queue)
        try migrator(3).migrate(queue)
        #expect(try queue.read { db in try migrator(3).appliedMigrations(db) } == ["v1", "v2", "v3"])
        #expect(try queue.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY 1") }
                    == ["v1", "v2", "v3"])
        #expect(try queue.read { db in try migrator(2).hasBeenSuperseded(db) })
        #expect(try queue.read { db in try !migrator(3).hasBeenSuperseded(db) })
    }

    @Test func stopsAtTheStepItIsTold() throws {
        let folder = try TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.file("upto.sqlite"))
        try migrator(3).migrate(queue, upTo: "v2")
        #expect(try queue.read { db in try migrator(3).appliedMigrations(db) } == ["v1", "v2"])
        #expect(try queue.read { db in try db.tableExists("t3") } == false)
    }

    @Test func aFailingStepLeavesNothingOfItself() throws {
        let folder = try TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.file("failing.sqlite"))
        var failing = migrator(1)
        failing.registerMigration("v2") { db in
            try db.execute(sql: "CREATE TABLE half (v INTEGER)")
            try db.execute(sql: "SELECT * FROM nothing")
        }
        #expect(throws: DatabaseError.self) { try failing.migrate(queue) }
        #expect(try queue.read { db in try failing.appliedMigrations(db) } == ["v1"])
        #expect(try queue.read { db in try db.tableExists("half") } == false)
    }

    @Test func aStepThatBreaksAForeignKeyIsRolledBack() throws {
        let folder = try TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.file("keys.sqlite"))
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE p (id INTEGER PRIMARY KEY);
                CREATE TABLE c (p INTEGER REFERENCES p (id));
                INSERT INTO c VALUES (9);
                """)
        }
        #expect(throws: DatabaseError.self) { try migrator.migrate(queue) }
        #expect(try queue.read { db in try db.tableExists("c") } == false)
        // Foreign keys are on again after the step.
        #expect(try queue.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") } == true)
    }
}
