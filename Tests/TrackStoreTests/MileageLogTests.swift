import Foundation
import TestSupport
import Testing
import TrackCore
@testable import TrackStore
import TrackSQLite

@Suite("The log file: creation, migrations, refusing what it cannot read")
struct MileageLogTests {
    @Test func createsAnEmptyLogWithTheWholeSchema() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        #expect(try log.appliedMigrations() == ["v1-mileage-log", "v2-erasable-chain", "v3-places", "v4-uplink", "v5-report-mail", "v6-odometer-sources", "v7-vehicle", "v8-country", "v9-rate", "v10-stick-copy", "v11-commute-detour", "v12-car", "v13-rules", "v14-language"])
        #expect(try log.integrityCheck() == ["ok"])
        let profile = try await log.profile()
        #expect(profile == LogProfile())
        #expect(try await log.trips(dates: nil).isEmpty)
        #expect(try await log.odometer() == nil)
        let tables = try sqlite3(folder.file("trackd.sqlite"), "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        for table in ["event", "ledger", "odometer_reading", "profile", "regular_trip", "revision", "track_point", "trip"] {
            #expect(tables.split(separator: "\n").contains(Substring(table)), "table \(table)")
        }
        #expect(try sqlite3(folder.file("trackd.sqlite"), "PRAGMA journal_mode").trimmingCharacters(in: .whitespacesAndNewlines) == "wal")
    }

    @Test func aNewLogIsInWALModeWithSmallPagesAndFullSync() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        #expect(try sqlite3(path, "PRAGMA page_size") == "1024")
        #expect(try sqlite3(path, "PRAGMA journal_mode") == "wal")
        // 2 = FULL: the WAL is synced at every commit (NORMAL, 1, syncs it only at checkpoints).
        let synchronous = try await log.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(synchronous == 2)
    }

    @Test func theDaemonsConnectionsKeepAPageCacheOfHalfAMebibyte() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let writing = try await log.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") }
        let reading = try await log.writer.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") }
        #expect(writing == -512)
        #expect(reading == -512)
    }

    @Test func reopeningKeepsWhatWasWritten() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        do {
            let log = try MileageLog.open(path: path)
            try await recordTrip(in: log, start: "2026-11-20T08:00:00Z")
        }
        let log = try MileageLog.open(path: path)
        let trips = try await log.trips(dates: nil)
        #expect(trips.count == 1)
        #expect(trips.first?.state == .closed)
        #expect(try log.appliedMigrations() == ["v1-mileage-log", "v2-erasable-chain", "v3-places", "v4-uplink", "v5-report-mail", "v6-odometer-sources", "v7-vehicle", "v8-country", "v9-rate", "v10-stick-copy", "v11-commute-detour", "v12-car", "v13-rules", "v14-language"])
    }

    @Test func refusesALogFromANewerTrackd() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        _ = try MileageLog.open(path: path)
        try sqlite3(path, "INSERT INTO grdb_migrations (identifier) VALUES ('v9-from-the-future')")
        #expect {
            try MileageLog.open(path: path)
        } throws: { error in
            guard case StoreError.newerSchema(_, let unknown) = error else { return false }
            return unknown == ["v9-from-the-future"] && "\(error)".contains("newer trackd")
        }
        #expect(throws: StoreError.self) { try MileageLog.openCopy(of: path) }
    }

    @Test func refusesAFileThatIsNotSQLite() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("notes.sqlite")
        try Data("these are my notes, not a database\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try MileageLog.open(path: path)
        } throws: { error in
            guard case StoreError.notADatabase = error else { return false }
            return "\(error)".contains("not an SQLite database")
        }
        #expect(throws: StoreError.self) { try MileageLog.openCopy(of: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "these are my notes, not a database\n",
                "the file is left as it was")
    }

    @Test func refusesAnotherApplicationsSQLiteDatabaseWithoutAddingTables() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("contacts.sqlite")
        _ = try sqlite3(path, "CREATE TABLE contact(name TEXT); INSERT INTO contact VALUES ('Anna');")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            try MileageLog.open(path: path)
        } throws: { error in
            guard case StoreError.foreignDatabase(_, let tables) = error else { return false }
            return tables == ["contact"] && "\(error)".contains("not a trackd log")
        }
        #expect(throws: StoreError.self) { try MileageLog.openCopy(of: path) }
        #expect(try sqlite3(path, "SELECT group_concat(name) FROM sqlite_master").trimmingCharacters(in: .whitespacesAndNewlines) == "contact", "no table was added")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func refusesAnotherApplicationsDatabaseWhoseTablesAreStillOnlyInItsWAL() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("contacts.sqlite")
        // The other application's commits wait in its -wal (a power cut before a checkpoint): a copy of both files
        // taken while its connection is open.
        let other = try DatabaseQueue(path: folder.file("open.sqlite"))
        try other.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "CREATE TABLE contact(name TEXT); INSERT INTO contact VALUES ('Anna')")
        }
        try FileManager.default.copyItem(atPath: folder.file("open.sqlite"), toPath: path)
        try FileManager.default.copyItem(atPath: folder.file("open.sqlite-wal"), toPath: path + "-wal")
        try other.close()
        #expect {
            try MileageLog.open(path: path)
        } throws: { error in
            guard case StoreError.foreignDatabase(_, let tables) = error else { return false }
            return tables == ["contact"]
        }
    }

    @Test func reportsACorruptFileWithoutChangingIt() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        do {
            let log = try MileageLog.open(path: path)
            for day in 10...14 { try await recordTrip(in: log, start: "2026-11-\(day)T08:00:00Z", seconds: 900) }
        }
        // Overwrite the middle of the file (past the header page) with garbage.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.count > 8192)
        for index in 4096..<(bytes.count - 1024) { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        try bytes.write(to: URL(fileURLWithPath: path))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var failed = false
        do {
            let copy = try MileageLog.openCopy(of: path)
            let problems = try copy.integrityCheck()
            failed = problems != ["ok"]
        } catch {
            failed = true
            #expect("\(error)".contains(path), "the message names the file: \(error)")
        }
        #expect(failed, "a damaged file is reported")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the damaged file is not touched")
    }

    @Test func aCopyReadsPendingWALFramesAndNeverTouchesTheOriginal() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        try await recordTrip(in: log, start: "2026-11-20T08:00:00Z")
        try await recordTrip(in: log, start: "2026-11-20T10:00:00Z", seconds: 300)
        // The daemon still has the log open: the newest commits are in the -wal file beside it.
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        let walSize = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
        #expect(walSize > 0)
        let files = [path, path + "-wal", path + "-shm"]
        let before = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }

        let copy = try MileageLog.openCopy(of: path)
        let trips = try await copy.trips(dates: nil)
        #expect(trips.map(\.distance) == [6000, 3000])
        let verification = try await copy.verify()
        #expect(verification.isIntact, "\(verification.problems)")
        await #expect(throws: StoreError.self) {
            try await copy.setProfile(ProfileChanges(driver: "Someone"), reason: nil, context: TestContext.at("2026-11-21T08:00:00Z"))
        }
        let after = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(before == after, "the log, its WAL and its shared-memory file are byte for byte as they were")
    }

    @Test func aCopyReadsALogOnAReadOnlyFolder() async throws {
        let folder = try TemporaryFolder()
        let card = folder.file("card")
        try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: true)
        let path = card + "/trackd.sqlite"
        do {
            let log = try MileageLog.open(path: path)
            try await recordTrip(in: log, start: "2026-11-20T08:00:00Z")
        }
        let listingBefore = try FileManager.default.contentsOfDirectory(atPath: card).sorted()
        #expect(listingBefore == ["trackd.sqlite"])
        // As a card mounted read-only: no file can be created or changed beside the log. For a user, modes do it;
        // root passes them by, so as root the folder is bound over itself read-only (a mount root may make).
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: card)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: card) }
        defer { if geteuid() == 0 { _ = try? runProgram("/bin/umount", [card]) } }
        if geteuid() == 0 {
            for arguments in [["--bind", card, card], ["-o", "remount,ro,bind", card]] {
                let mount = try runProgram("/bin/mount", arguments)
                try #require(mount.status == 0, "as root, a read-only folder needs a bind mount: \(mount.error)")
            }
        }
        #expect(!FileManager.default.createFile(atPath: card + "/probe", contents: nil), "the folder is read-only")
        let copy = try MileageLog.openCopy(of: path)
        #expect(try await copy.trips(dates: nil).count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: card).sorted() == listingBefore,
                "no -wal or -shm file appears beside the log")
    }
}
