#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TrackSQLite
import TestSupport
import Testing
import TrackCore
@testable import TrackStore

/// A log whose file cannot be written: SQLite's own "database or disk is full" in a real file (a page limit on the
/// writing connection, `PRAGMA max_page_count`), and the faults named from what the system said.
@Suite struct StorageFaultTests {
    @Test func aWriteToAFullLogIsRefusedAsDiskFullAndLeavesTheLogAsItWas() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        let before = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z", seconds: 300)
        let running = try await log.beginTrip(kind: .business, purpose: "Site visit", customer: nil)
        try await log.appendPoints(points(from: "2026-11-22T08:00:00Z", count: 10), to: running.id)

        try await Self.limitPages(of: log, to: nil)
        do {
            try await log.appendPoints(points(from: "2026-11-22T08:00:10Z", count: 3000), to: running.id)
            Issue.record("3000 points went into a log that cannot grow")
        } catch {
            #expect(error.storageFault == .diskFull)
            #expect("\(error)" == "the mileage log could not store track points: disk full: cannot write \(path); "
                        + "free space on that filesystem")
        }
        await #expect(throws: StoreError.self) { try await log.setOdometer(1_000_000, reason: "dashboard", context: TestContext.at("2026-11-22T09:00:00Z")) }

        // Nothing stored is damaged or changed, and the running trip has the points it had.
        #expect(try log.integrityCheck() == ["ok"])
        #expect(try await log.trip(before.id) == before)
        #expect(try await log.track(running.id).flatMap { $0 }.count == 10)
        #expect(try await log.verify().isIntact)

        // Space returns: the same write goes through, after the points before it.
        try await Self.limitPages(of: log, to: 1_073_741_823)
        try await log.appendPoints(points(from: "2026-11-22T08:00:10Z", count: 3000), to: running.id)
        #expect(try await log.track(running.id).flatMap { $0 }.count == 3010)
        #expect(try log.integrityCheck() == ["ok"])
    }

    @Test func aWriteBlockedByAnotherProgramsLockIsRefusedAsLockedAndPassesOnceItIsFree() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path, busyTimeout: 0.05)
        let running = try await log.beginTrip(kind: .business, purpose: "Site visit", customer: nil)
        // Another connection, as another program's, that keeps its write transaction open between accesses.
        let other = try DatabaseQueue(path: path)
        try await other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        do {
            try await log.appendPoints(points(from: "2026-11-22T08:00:00Z", count: 3), to: running.id)
            Issue.record("points went into a log another connection holds")
        } catch {
            #expect(error.storageFault == .locked)
            #expect(!error.isRefusal, "tried again later")
            #expect("\(error)" == "the mileage log could not store track points: locked by another program: cannot write "
                        + "\(path); close the program that is writing to the log (sqlite3, a card reader's tool); trackd "
                        + "keeps what waits and writes it once the log is free")
        }
        try await other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        try await log.appendPoints(points(from: "2026-11-22T08:00:00Z", count: 3), to: running.id)
        #expect(try await log.track(running.id).flatMap { $0 }.count == 3)
    }

    @Test func theFaultIsNamedFromWhatTheSystemSaid() {
        let path = "/var/lib/trackd/trackd.sqlite"
        let full: Int32 = 13, ioError: Int32 = 10, readOnly: Int32 = 8, busy: Int32 = 5
        #expect(StorageFault.diagnose(resultCode: ioError, systemErrno: ENOSPC, message: "disk I/O error", path: path) == .diskFull)
        #expect(StorageFault.diagnose(resultCode: ioError, systemErrno: EROFS, message: "disk I/O error", path: path)
                == .readOnlyFileSystem)
        #expect(StorageFault.diagnose(resultCode: readOnly, systemErrno: EROFS, message: "readonly", path: path)
                == .readOnlyFileSystem)
        if case .fileSizeLimit = StorageFault.diagnose(resultCode: ioError, systemErrno: EFBIG, message: "", path: path) {
        } else {
            Issue.record("EFBIG is not named as the file-size limit")
        }
        #expect(StorageFault.diagnose(resultCode: full, systemErrno: 0, message: "database or disk is full", path: path)
                == .diskFull)
        #expect(StorageFault.diagnose(resultCode: ioError, systemErrno: EIO, message: "disk I/O error", path: path)
                == .ioError("Input/output error"))
        // Another program's lock is a fault of the moment too: the write waits in memory, it is not thrown away.
        #expect(StorageFault.diagnose(resultCode: busy, systemErrno: 0, message: "database is locked", path: path) == .locked)
        #expect(StorageFault.diagnose(resultCode: 6, systemErrno: 0, message: "database table is locked", path: path) == .locked)
        #expect(StorageFault.diagnose(resultCode: 19, systemErrno: 0, message: "constraint failed", path: path) == nil)
        #expect("\(StorageFault.readOnlyFileSystem)" == "read-only file system")
    }

    /// ext4 read-only after an error (`emergency_ro`, Linux 6.18): not in `statvfs`, and SQLite's failed write is a
    /// `SQLITE_IOERR` without an errno; only opening the file for writing says EROFS (found by scripts/fault-disk).
    @Test func aFilesystemThatRefusesToOpenTheLogForWritingIsNamedReadOnlyThoughSQLiteSaidNoErrno() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let ioError: Int32 = 10
        try Data().write(to: URL(fileURLWithPath: path + "-wal"))
        var probed: [String] = []
        let fault = StorageFault.diagnose(resultCode: ioError, systemErrno: 0, message: "disk I/O error", path: path,
                                          openForWriting: { probed.append($0); return EROFS })
        #expect(fault == .readOnlyFileSystem)
        // The WAL, never the log: closing a descriptor of the log would drop SQLite's locks on it (DiskFullTests).
        #expect(probed == [path + "-wal"])
        // A filesystem that can be written: the I/O error stays one.
        #expect(StorageFault.diagnose(resultCode: ioError, systemErrno: 0, message: "disk I/O error", path: path,
                                      openForWriting: { _ in 0 }) == .ioError("disk I/O error"))
    }

    @Test func openingAWritableLogForWritingNeitherCreatesNorChangesIt() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        #expect(StorageFault.openForWriting(path) == ENOENT)
        #expect(!FileManager.default.fileExists(atPath: path))
        try Data("log".utf8).write(to: URL(fileURLWithPath: path))
        #expect(StorageFault.openForWriting(path) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("log".utf8))
    }

    /// Sets SQLite's page limit on the log's writing connection: `nil` for the pages it has now (so any write that
    /// needs one more page fails with SQLITE_FULL).
    static func limitPages(of log: MileageLog, to pages: Int?) async throws {
        try await log.writer.writeWithoutTransaction { db in
            let limit = try pages ?? Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(limit)")
        }
    }

    private func points(from start: String, count: Int) -> [RecordedPoint] {
        let time = UTCTime(iso8601: start)!
        return (0..<count).map { second in
            RecordedPoint(point: TrackPoint(time: time.adding(seconds: Double(second)),
                                            coordinate: Coordinate(latitude: 59.437, longitude: 24.7536 + Double(second) * 1e-4),
                                            speed: 10, error: 3, distance: Double(second) * 10),
                          segment: 0)
        }
    }
}
