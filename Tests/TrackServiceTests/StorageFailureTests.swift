import Foundation
import TrackSQLite
import Logging
import TestSupport
import Testing
import TrackCore
@testable import TrackService
@testable import TrackStore

/// The tracker while the mileage log cannot be written (a real SQLite file that may not grow: `PRAGMA
/// max_page_count` on the log's writing connection gives SQLite's own "database or disk is full"): it goes on
/// tracking, keeps what it cannot write, says so in `status` and once in the journal, refuses changes naming the
/// cause, and stores what it kept when space returns.
@Suite struct StorageFailureTests {
    private let start = UTCTime.iso("2026-11-22T08:00:00Z")

    @Test func keepsTheTrackInMemoryWhileTheDiskIsFullAndStoresItAllWhenSpaceReturns() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        var drive = DriveSimulator(start: start, seed: 71)
        drive.park(5)
        drive.drive(600, kmh: 50, endKmh: 50)
        let before = drive.fixes
        drive.drive(900, kmh: 50, endKmh: 50, turnDegrees: 90)
        let during = Array(drive.fixes.dropFirst(before.count))
        drive.drive(300, kmh: 50)
        drive.park(10)
        let after = Array(drive.fixes.dropFirst(before.count + during.count))

        let log = try MileageLog.open(path: path)
        let (logger, records) = RecordingLogHandler.logger()
        let tracker = TrackerHarness(log: log, origin: start, tick: .milliseconds(20), commitInterval: 5, logger: logger)
        let trip = try await tracker.tripRequest(.start(StartParams(kind: .business, purpose: "Depot")))
        let stored = "SELECT COUNT(*) FROM track_point WHERE trip_id = \(trip.id)"
        try await tracker.feedAndWait(before)
        tracker.setClock(to: before.last!.time!, plus: 5)
        try await eventually("the first leg is stored") {
            try sqlite3(path, "SELECT COALESCE(MAX(time_ms), 0) FROM track_point") == "\(before.last!.time!.milliseconds)"
        }
        let storedBefore = try sqlite3(path, stored)

        // The disk fills: the next commit fails; the trip runs on in memory.
        try await Self.limitPages(of: log, to: nil)
        try await tracker.feedAndWait(during)
        tracker.setClock(to: during.last!.time!, plus: 5)
        try await eventually("status says the storage fails") {
            tracker.status.snapshot(now: tracker.clock.now()).storage?.state == .failing
        }
        let failing = try #require(tracker.status.snapshot(now: tracker.clock.now()).storage)
        #expect(failing.detail == "disk full: cannot write \(path)")
        #expect(failing.pendingPoints >= during.count - 5, "\(failing.pendingPoints) points kept of \(during.count) fixes")
        #expect(tracker.status.snapshot(now: tracker.clock.now()).trip?.number == trip.id)

        // Changes that need the log are refused, naming the cause.
        tracker.setClock(to: during.last!.time!, plus: 12)  // another retry, which fails too
        try await tracker.feedAndWait(after)
        tracker.setClock(to: after.last!.time!, plus: 20)
        let stop = await tracker.request(.stop(StopParams(purpose: "Depot run")))
        #expect(Self.message(stop) == "trip \(trip.id) ended, but the mileage log cannot close it yet: disk full: "
                    + "cannot write \(path); trackd keeps it in memory and closes it once the log can be written again")
        let restart = await tracker.request(.start(StartParams(kind: .private)))
        #expect(Self.message(restart)?.hasPrefix("cannot start a trip: disk full: cannot write \(path)") == true, "\(restart)")

        // Nothing stored is damaged; the file still has the trip open with the first leg.
        #expect(try log.integrityCheck() == ["ok"])
        #expect(try sqlite3(path, stored) == storedBefore)
        #expect(try sqlite3(path, "SELECT state FROM trip WHERE id = \(trip.id)") == "open")

        // Space returns: at the next commit interval everything kept is written, in order, and the trip closed.
        try await Self.limitPages(of: log, to: 1_073_741_823)
        tracker.setClock(to: after.last!.time!, plus: 30)
        try await eventually("the storage is ok again") {
            tracker.status.snapshot(now: tracker.clock.now()).storage?.state == .ok
        }
        let closed = try await log.trip(trip.id)
        #expect(closed.state == .closed)
        #expect(closed.purpose == "Depot run")
        #expect(abs(closed.measuredDistance! - drive.trueDistance) / drive.trueDistance < 0.02,
                "measured \(closed.measuredDistance!) m of \(drive.trueDistance) m")
        let track = try await log.track(trip.id).flatMap { $0 }
        #expect(track.last!.time <= after.last!.time! && track.last!.time >= after.last!.time!.adding(seconds: -12))
        let times = track.map(\.time)
        #expect(times == times.sorted() && Set(times).count == times.count, "stored in order, none twice")
        #expect(times.contains(during.first!.time!) || times.contains(during[1].time!), "the leg kept in memory is stored")
        #expect(try log.integrityCheck() == ["ok"])
        #expect(try await log.verify().isIntact)
        let snapshot = tracker.status.snapshot(now: tracker.clock.now())
        #expect(snapshot.storage?.pendingPoints == 0 && snapshot.storage?.pendingRecords == 0)

        // And a new trip starts.
        let next = try await tracker.tripRequest(.start(StartParams(kind: .private)))
        #expect(next.id.rawValue == trip.id.rawValue + 1)
        await tracker.finish()

        // The journal: one error when it began, one notice when it ended.
        #expect(records.records("the mileage log cannot be written; trackd keeps tracking and tries again at each commit interval").count == 1)
        let recovered = records.records("the mileage log can be written again; what was kept in memory is stored")
        #expect(recovered.count == 1)
        #expect(recovered.first?["records"] == "1", "the trip's close")
    }

    @Test func keepsTheTrackAndTheCloseWhileAnotherProgramHoldsTheLogsLock() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        var drive = DriveSimulator(start: start, seed: 73)
        drive.park(5)
        drive.drive(300, kmh: 50, endKmh: 50)
        let before = drive.fixes
        drive.drive(600, kmh: 50, turnDegrees: 90)
        drive.park(10)
        let during = Array(drive.fixes.dropFirst(before.count))

        // A short wait for the lock, so that each failed commit costs the test little; the daemon waits 2 s.
        let log = try MileageLog.open(path: path, busyTimeout: 0.05)
        let tracker = TrackerHarness(log: log, origin: start, tick: .milliseconds(20), commitInterval: 5)
        let trip = try await tracker.tripRequest(.start(StartParams(kind: .business, purpose: "Depot")))
        try await tracker.feedAndWait(before)
        tracker.setClock(to: before.last!.time!, plus: 5)
        try await eventually("the first leg is stored") {
            try sqlite3(path, "SELECT COALESCE(MAX(time_ms), 0) FROM track_point") == "\(before.last!.time!.milliseconds)"
        }

        // A program on the board (sqlite3, a card reader's tool) takes the log's write lock and keeps it.
        let lock = try DatabaseLock(path, in: folder)
        #expect(await lock.waitUntilHeld(), "\(lock.output)")

        try await tracker.feedAndWait(during)
        tracker.setClock(to: during.last!.time!, plus: 5)
        try await eventually("status says the log is locked") {
            tracker.status.snapshot(now: tracker.clock.now()).storage?.state == .failing
        }
        let failing = try #require(tracker.status.snapshot(now: tracker.clock.now()).storage)
        #expect(failing.detail == "locked by another program: cannot write \(path)")
        #expect(failing.pendingPoints > 0)
        let stop = await tracker.request(.stop(StopParams(purpose: "Depot run")))
        #expect(Self.message(stop) == "trip \(trip.id) ended, but the mileage log cannot close it yet: locked by another "
                    + "program: cannot write \(path); trackd keeps it in memory and closes it once the log can be written again")

        // The other program lets go: at the next commit interval everything kept is written and the trip closed.
        await lock.release()
        tracker.setClock(to: during.last!.time!, plus: 20)
        try await eventually("the storage is ok again") {
            tracker.status.snapshot(now: tracker.clock.now()).storage?.state == .ok
        }
        let closed = try await log.trip(trip.id)
        #expect(closed.state == .closed)
        #expect(closed.purpose == "Depot run")
        let track = try await log.track(trip.id).flatMap { $0 }
        #expect(track.contains { $0.time == during[during.count / 2].time! }, "the leg driven while locked is stored")
        #expect(track.last!.time >= during.last!.time!.adding(seconds: -12))
        #expect(try log.integrityCheck() == ["ok"])
        #expect(try await log.verify().isIntact)
        await tracker.finish()
    }

    @Test func keepsOnlyTheNewestPointsBeyondItsBoundAndTheDistanceStaysWhole() async throws {
        var backlog = Backlog()
        let points = (0..<10).map { second in
            RecordedPoint(point: TrackPoint(time: start.adding(seconds: Double(second)),
                                            coordinate: Coordinate(latitude: 59.4, longitude: 24.7), speed: 10, error: 3,
                                            distance: Double(second) * 10), segment: 0)
        }
        backlog.append(.points(Array(points[0..<4]), tripID: 1, resumption: nil))
        backlog.append(.event(.fixLost, time: start, tripID: 1, detail: "no usable fix"))
        backlog.append(.points(Array(points[4..<10]), tripID: 1, resumption: nil))
        backlog.trim(keepingPoints: 5)
        #expect(backlog.points == 5)
        #expect(backlog.dropped == 5)
        #expect(backlog.records == 1)
        guard case .event? = backlog.first else {
            Issue.record("the first batch, all dropped, should be gone: \(String(describing: backlog.first))")
            return
        }
    }

    @Test func keepsOneNoteOfARunningTripsEndsTheNewestAndDropsItAtTheTripsClose() throws {
        var backlog = Backlog()
        let here = Coordinate(latitude: 59.4, longitude: 24.7)
        let there = Coordinate(latitude: 59.41, longitude: 24.71)
        backlog.append(.ends(TripEnds(start: here, end: here), tripID: 1))
        backlog.append(.event(.fixLost, time: start, tripID: 1, detail: "no usable fix"))
        backlog.append(.ends(TripEnds(start: nil, end: there), tripID: 1))
        #expect(backlog.records == 1, "a note of the ends is not a record of the log")
        let notes = backlog.writesForTesting.compactMap { if case .ends(let ends, _) = $0 { ends } else { nil } }
        #expect(notes == [TripEnds(start: here, end: there)], "merged into one, the newest end and the start kept")
        backlog.append(.close(tripID: 1, TripSummary(start: start, end: start, startPosition: here, endPosition: there,
                                                     measuredDistance: 0, purpose: nil, endReason: "stopped"),
                              resumption: nil, afterPowerLoss: nil, exportsAt: nil))
        #expect(!backlog.writesForTesting.contains { if case .ends = $0 { true } else { false } },
                "the close writes the ends itself")
        #expect(backlog.records == 2)
    }

    @Test func aRunningTripsEndsGoInTheSameWriteAsItsPoints() throws {
        var backlog = Backlog()
        let here = Coordinate(latitude: 59.4, longitude: 24.7)
        let there = Coordinate(latitude: 59.41, longitude: 24.71)
        let points = (0..<4).map { second in
            RecordedPoint(point: TrackPoint(time: start.adding(seconds: Double(second)), coordinate: here, speed: 10,
                                            error: 3, distance: Double(second) * 10), segment: 0)
        }
        backlog.append(.ends(TripEnds(start: here), tripID: 1))
        backlog.append(.points(Array(points[0..<2]), tripID: 1, resumption: nil))
        backlog.append(.ends(TripEnds(end: there), tripID: 1))
        backlog.append(.points(Array(points[2..<4]), tripID: 1, resumption: nil))
        #expect(backlog.writesForTesting.count == 1, "one write: one transaction, one sync")
        guard case .points(let batch, 1, nil, let ends)? = backlog.first else {
            Issue.record("\(backlog.writesForTesting)")
            return
        }
        #expect(batch.count == 4)
        #expect(ends == TripEnds(start: here, end: there))
        // Points given up to the bound: the ends they carried still wait.
        backlog.trim(keepingPoints: 0)
        let notes = backlog.writesForTesting.compactMap { if case .ends(let ends, _) = $0 { ends } else { nil } }
        #expect(notes == [TripEnds(start: here, end: there)])
        #expect(backlog.points == 0)
    }

    /// Sets SQLite's page limit on the log's writing connection: `nil` for the pages it has now.
    static func limitPages(of log: MileageLog, to pages: Int?) async throws {
        try await log.writer.writeWithoutTransaction { db in
            let limit = try pages ?? Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(limit)")
        }
    }

    private static func message(_ result: Result<LogResponse, RPCError>) -> String? {
        if case .failure(let error) = result { error.message } else { nil }
    }
}
