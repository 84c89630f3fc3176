import CSQLite
import Foundation
import TestSupport
import Testing
import TrackSQLite

@Suite struct DatabaseTests {
    @Test func valuesGoInAndComeBackAsTheirTypes() throws {
        let folder = try TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.file("values.sqlite"))
        let row = try queue.write { db -> Row? in
            try db.execute(sql: "CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)",
                           arguments: [Int64.max, 2.5, "Jüri \"Tamm\"", [UInt8]([0, 1, 255]), nil])
            return try Row.fetchOne(db, sql: "SELECT * FROM t")
        }
        let read = try #require(row)
        #expect(try read["i"] as Int64 == Int64.max)
        #expect(try read["r"] as Double == 2.5)
        #expect(try read["S"] as String == "Jüri \"Tamm\"")   // column names are matched without case
        #expect(try read["b"] as [UInt8] == [0, 1, 255])
        #expect(try read["n"] as String? == nil)
        #expect(try read["i"] as Double? == Double(Int64.max))
        #expect(try read[1] as Double == 2.5)
    }

    @Test func aValueOfAnotherTypeIsAnErrorThatNamesItsColumnNotACrash() throws {
        let folder = try TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.file("mismatch.sqlite"))
        let row = try #require(try queue.write { db -> Row? in
            // SQLite keeps a text that does not look like a number as text, even in a REAL column.
            try db.execute(sql: "CREATE TABLE t (r REAL NOT NULL, n REAL); INSERT INTO t VALUES ('abc', NULL)")
            return try Row.fetchOne(db, sql: "SELECT * FROM t")
        })
        for read in [{ _ = try row["r"] as Double }, { _ = try row["r"] as Double? }, { _ = try row[0] as Double },
                     { _ = try row["n"] as Double }, { _ = try row["missing"] as Double? }] {
            let error = try #require(throws: DatabaseError.self) { try read() }
            #expect(error.resultCode == .SQLITE_MISMATCH)
        }
        let error = try #require(throws: DatabaseError.self) { _ = try row["r"] as Double }
        #expect(error.message == "column 'r' holds the text 'abc', which does not read as Double")
        #expect(try row["n"] as Double? == nil, "NULL reads as nil")
    }

    @Test func releasingMemoryEmptiesTheConnectionsPageCache() throws {
        let folder = try TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.file("cache.sqlite"))
        let (filled, released) = try queue.writeWithoutTransaction { db -> (Int32, Int32) in
            try db.execute(sql: "CREATE TABLE t (b BLOB)")
            try db.inTransaction {
                for _ in 0..<2000 { try db.execute(sql: "INSERT INTO t VALUES (zeroblob(100))") }
                return .commit
            }
            let filled = Self.pageCacheBytes(db)
            db.releaseMemory()
            return (filled, Self.pageCacheBytes(db))
        }
        #expect(filled > 100_000, "2 000 rows of 100 bytes went through the cache")
        #expect(released < filled / 10)
    }

    /// Bytes the connection's page cache holds (`SQLITE_DBSTATUS_CACHE_USED`).
    private static func pageCacheBytes(_ db: Database) -> Int32 {
        var used: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(db.sqliteConnection, SQLITE_DBSTATUS_CACHE_USED, &used, &highest, 0)
        return used
    }

    @Test func severalStatementsTakeTheirArgumentsInOrder() throws {
        let folder = try TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.file("many.sqlite"))
        let values = try queue.write { db -> [Int] in
            try db.execute(sql: """
                CREATE TABLE t (v INTEGER);  -- a comment between
                INSERT INTO t VALUES (?); INSERT INTO t VALUES (?), (?);
                """, arguments: [3, 1, 2])
            return try Int.fetchAll(db, sql: "SELECT v FROM t ORDER BY v")
        }
        #expect(values == [1, 2, 3])
        #expect(throws: DatabaseError.self) {
            try queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [1, 2]) }
        }
    }

    @Test func aThrowingBodyRollsItsTransactionBack() throws {
        struct Stop: Error {}
        let folder = try TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.file("rollback.sqlite"))
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (v INTEGER)") }
        #expect(throws: Stop.self) {
            try queue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                throw Stop()
            }
        }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
        #expect(try queue.writeWithoutTransaction { db in db.isInsideTransaction } == false)
    }

    @Test func aFailedStatementSaysWhatSQLiteSaid() throws {
        let folder = try TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.file("error.sqlite"))
        do {
            try queue.write { db in try db.execute(sql: "INSERT INTO missing VALUES (1)") }
            Issue.record("an insert into a missing table passed")
        } catch let error as DatabaseError {
            #expect(error.resultCode.primaryResultCode == .SQLITE_ERROR)
            #expect(error.message == "no such table: missing")
            #expect(error.sql == "INSERT INTO missing VALUES (1)")
        }
    }

    @Test func aCursorReadsRowByRowWhileOtherQueriesRun() throws {
        let folder = try TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.file("cursor.sqlite"))
        let sums = try queue.write { db -> [Int] in
            try db.execute(sql: "CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1), (2), (3)")
            let rows = try Row.fetchCursor(db, sql: "SELECT v FROM t ORDER BY v")
            var sums: [Int] = []
            while let row = try rows.next() {
                let v: Int = try row["v"]
                sums.append(v + (try Int.fetchOne(db, sql: "SELECT SUM(v) FROM t WHERE v < ?", arguments: [v]) ?? 0))
            }
            #expect(try rows.next() == nil)
            return sums
        }
        #expect(sums == [1, 3, 6])
    }

    @Test func aPoolReadsTheLastCommitWhileAWriteIsUnderWay() async throws {
        let folder = try TemporaryFolder()
        let pool = try DatabasePool(path: folder.file("pool.sqlite"))
        try await pool.write { db in try db.execute(sql: "CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1)") }
        #expect(try readDuringAWrite(pool) == 1)
        #expect(try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
        #expect(try await pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        await #expect(throws: DatabaseError.self) {
            try await pool.read { db in try db.execute(sql: "INSERT INTO t VALUES (3)") }
        }
    }

    /// What a read sees while the writer has inserted a second row and not yet committed.
    private func readDuringAWrite(_ pool: DatabasePool) throws -> Int? {
        try pool.writeWithoutTransaction { db -> Int? in
            try db.execute(sql: "BEGIN IMMEDIATE; INSERT INTO t VALUES (2)")
            defer { try? db.execute(sql: "COMMIT") }
            return try pool.read { reader in try Int.fetchOne(reader, sql: "SELECT COUNT(*) FROM t") }
        }
    }

    @Test func aWriteWaitsForAnotherConnectionsLockThenFailsAsBusy() throws {
        let folder = try TemporaryFolder()
        var configuration = Configuration()
        configuration.busyTimeout = 0.3
        let pool = try DatabasePool(path: folder.file("busy.sqlite"), configuration: configuration)
        let other = try DatabaseQueue(path: folder.file("busy.sqlite"))
        try other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let clock = ContinuousClock()
        let began = clock.now
        do {
            try pool.write { db in try db.execute(sql: "CREATE TABLE t (v INTEGER)") }
            Issue.record("a write passed another connection's lock")
        } catch let error as DatabaseError {
            #expect(error.resultCode.primaryResultCode == .SQLITE_BUSY)
        }
        // It waited the busy timeout before giving up. A lower bound only: a slow or busy machine makes the wait
        // longer, never shorter, so this cannot fail for want of speed; without the timeout SQLite answers BUSY at once.
        let waited = began.duration(to: clock.now)
        #expect(waited >= .milliseconds(300), "gave up after \(waited)")
        try other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        try pool.write { db in try db.execute(sql: "CREATE TABLE t (v INTEGER)") }
    }

    @Test func anImmutableOpeningReadsTheFileAndMakesNoSharedMemoryBesideIt() throws {
        let folder = try TemporaryFolder()
        // A name with the characters an SQLite URI gives a meaning to.
        let path = folder.file("log 100% #1?.sqlite")
        let writer = try DatabaseQueue(path: path)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL; CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (7)")
        }
        #expect(FileManager.default.fileExists(atPath: path + "-shm"), "open in WAL mode: a -shm beside it")
        try writer.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"), "closed: SQLite took its -shm away")
        var configuration = Configuration()
        configuration.immutable = true
        let immutable = try DatabaseQueue(path: path, configuration: configuration)
        #expect(try immutable.read { db in try Int.fetchOne(db, sql: "SELECT v FROM t") } == 7)
        try immutable.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        // Opened read-only as usual, the same file gets its -shm.
        configuration.immutable = false
        configuration.readonly = true
        let readOnly = try DatabaseQueue(path: path, configuration: configuration)
        #expect(try readOnly.read { db in try Int.fetchOne(db, sql: "SELECT v FROM t") } == 7)
        #expect(FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test func foreignKeysAreEnforced() throws {
        let folder = try TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.file("keys.sqlite"))
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE c (p INTEGER REFERENCES p (id))")
        }
        #expect(throws: DatabaseError.self) {
            try queue.write { db in try db.execute(sql: "INSERT INTO c VALUES (7)") }
        }
    }

    @Test func identifiersAreQuotedWithTheirQuotesDoubled() {
        #expect("trip".quotedDatabaseIdentifier == "\"trip\"")
        #expect("a \"b\"".quotedDatabaseIdentifier == "\"a \"\"b\"\"\"")
    }
}
