import Foundation
import TestSupport
import Testing

/// trackd killed with SIGKILL while it writes (the power cut of an ignition switched off mid-trip): the file stays
/// intact and the trip carries on or is closed, as docs/storage.md says.
@Suite(.serialized)
struct PowerCutTests {
    /// Fast playback and a commit every second while moving, so that kills land among the writes.
    private let configuration = "log:\n  commit_interval: 1\n  resume_within: 300\n"
    /// The playback speed of the tests that need drive left after their kills: the 16-minute demo drive lasts 96 s
    /// at it, so that a loaded machine's late polls (kills land later than asked) do not run it out. At 20× a
    /// fresh-clone run that took 197 s for this suite did.
    private static let slowSpeed = 10

    @Test func aKilledDaemonLeavesAnIntactFileAndTheTripCarriesOnWhenPowerComesBackSoon() async throws {
        let folder = try TemporaryFolder()
        // Five minutes of the drive, then parked: the trip is open when the power goes, however late that is.
        let first = folder.file("first.nmea")
        try DriveLog.piece(of: DriveLog.demo, seconds: 300, to: first)
        var daemon = try await Trackd.start(state: folder.path, source: "file://\(first)?speed=20", autoStart: "business",
                                configuration: configuration)
        try await waitForPoints(atLeast: 150, in: daemon)
        await daemon.kill()
        let cut = try await inspectCopy(of: daemon.database, in: folder)
        #expect(cut.integrity == "ok")
        #expect(cut.openTrips == "1", "the trip is still open in the file")
        let pointsBeforeCut = try #require(Int(cut.points))

        // The receiver kept running; trackd comes back 20 s (GPS time) after its last stored point.
        let slice = folder.file("after-cut.nmea")
        try DriveLog.cut(DriveLog.demo, after: cut.lastPointSecondOfDay + 20, to: slice)
        daemon = try await Trackd.start(state: folder.path, source: "file://\(slice)?speed=20", autoStart: "business",
                            configuration: configuration, run: 1)
        let resumed = await poll(upTo: 60) {
            (try? await query(daemon.database, "SELECT COUNT(*) FROM event WHERE kind = 'resumed' AND trip_id = 1"))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == "1"
        }
        #expect(resumed, "trip 1 carries on: \(daemon.process.output)")
        try await waitForPoints(atLeast: pointsBeforeCut + 100, in: daemon)
        await daemon.stop()

        let trips = try json(await trackctl(["--db", daemon.database, "--json", "trips", "--all"]).output) as? [[String: Any]]
        #expect(trips?.count == 1, "no second trip was started")
        let trip = try #require(trips?.first)
        #expect(trip["state"] as? String == "closed")
        #expect((trip["gaps"] as? Int ?? 0) >= 1, "the time without power is an outage of the trip")
        #expect((trip["distance_m"] as? Double ?? 0) > 3000)
        let verify = try await trackctl(["--db", daemon.database, "verify"])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)")
    }

    @Test func aTripLeftOpenLongerThanTheResumeWindowIsClosedAtItsLastStoredFix() async throws {
        let folder = try TemporaryFolder()
        let first = folder.file("first.nmea")
        try DriveLog.piece(of: DriveLog.demo, seconds: 300, to: first)
        var daemon = try await Trackd.start(state: folder.path, source: "file://\(first)?speed=\(Self.slowSpeed)", autoStart: "business",
                                configuration: configuration)
        try await waitForPoints(atLeast: 100, in: daemon)
        await daemon.kill()
        let cut = try await inspectCopy(of: daemon.database, in: folder)
        #expect(cut.integrity == "ok")

        // Back only 400 s later (GPS time): beyond resume_within.
        let slice = folder.file("much-later.nmea")
        try DriveLog.cut(DriveLog.demo, after: cut.lastPointSecondOfDay + 400, to: slice)
        daemon = try await Trackd.start(state: folder.path, source: "file://\(slice)?speed=\(Self.slowSpeed)", autoStart: "business",
                            configuration: configuration, run: 1)
        let closed = await poll(upTo: 60) {
            (try? await query(daemon.database, "SELECT state || ',' || end_reason FROM trip WHERE id = 1"))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == "closed,power-lost"
        }
        #expect(closed, "trip 1 is closed after the power cut: \(daemon.process.output)")
        await daemon.stop()

        let show = try json(await trackctl(["--db", daemon.database, "--json", "show", "1"]).output) as? [String: Any]
        let trip = try #require(show?["trip"] as? [String: Any])
        #expect(trip["end_reason"] as? String == "power-lost")
        let lastStored = String(format: "%02d:%02d:%02d", Int(cut.lastPointSecondOfDay) / 3600,
                                Int(cut.lastPointSecondOfDay) / 60 % 60, Int(cut.lastPointSecondOfDay) % 60)
        #expect((trip["end"] as? String)?.contains("T\(lastStored)") == true, "ends at its last stored fix, \(lastStored)")
        let events = show?["events"] as? [[String: Any]] ?? []
        #expect(events.contains { $0["kind"] as? String == "power-lost" })
        let trips = try json(await trackctl(["--db", daemon.database, "--json", "trips", "--all"]).output) as? [[String: Any]]
        #expect(trips?.count == 2, "the ignition started a new trip")
        #expect(try await trackctl(["--db", daemon.database, "verify"]).status == 0)
    }

    @Test func survivesRepeatedKillsAtAnyMomentOfWriting() async throws {
        let folder = try TemporaryFolder()
        // Each part three minutes of the drive, then parked: a cut always finds the trip open, and the drive goes on
        // after it.
        let first = folder.file("round-0.nmea")
        try DriveLog.piece(of: DriveLog.demo, seconds: 180, to: first)
        var daemon = try await Trackd.start(state: folder.path, source: "file://\(first)?speed=\(Self.slowSpeed)", autoStart: "business",
                                configuration: configuration)
        var points = 0
        var random = SplitMix64(seed: 5)
        for round in 1...5 {
            // A different moment each round, chosen by the seed, never by a clock: as soon as a commit has brought
            // the stored points to a count some way past the last cut's, while the next commit is being gathered.
            try await waitForPoints(atLeast: points + 30 + Int(random.next() % 20), in: daemon)
            await daemon.kill()
            let cut = try await inspectCopy(of: daemon.database, in: folder)
            #expect(cut.integrity == "ok", "round \(round)")
            #expect(cut.openTrips == "1", "round \(round)")
            let stored = try #require(Int(cut.points))
            #expect(stored >= points, "round \(round): nothing committed was lost")
            points = stored
            let slice = folder.file("round-\(round).nmea")
            try DriveLog.piece(of: DriveLog.demo, after: cut.lastPointSecondOfDay + 5, seconds: 180, to: slice)
            daemon = try await Trackd.start(state: folder.path, source: "file://\(slice)?speed=\(Self.slowSpeed)", autoStart: "business",
                                configuration: configuration, run: round)
        }
        try await waitForPoints(atLeast: points + 30, in: daemon)
        await daemon.stop()
        #expect(try await query(daemon.database, "PRAGMA integrity_check").trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
        #expect(try await query(daemon.database, "SELECT COUNT(*) || ',' || MIN(state) FROM trip")
            .trimmingCharacters(in: .whitespacesAndNewlines) == "1,closed", "one trip, carried on through every cut")
        #expect(try await query(daemon.database, "SELECT COUNT(*) FROM event WHERE kind = 'resumed'")
            .trimmingCharacters(in: .whitespacesAndNewlines) == "5")
        #expect(try await trackctl(["--db", daemon.database, "verify"]).status == 0)
    }

    // MARK: - Helpers

    /// What a card reader finds after the cut: the database, its WAL and the point file copied as they are, then
    /// opened.
    private struct Cut {
        var integrity: String
        var openTrips: String
        var points: String
        var lastPointSecondOfDay: Double
    }

    private func inspectCopy(of database: String, in folder: TemporaryFolder) async throws -> Cut {
        let copy = folder.file("card-\(UUID().uuidString.prefix(6)).sqlite")
        try FileManager.default.copyItem(atPath: database, toPath: copy)
        for suffix in ["-wal", "-points"] where FileManager.default.fileExists(atPath: database + suffix) {
            try FileManager.default.copyItem(atPath: database + suffix, toPath: copy + suffix)
        }
        func read(_ sql: String) async throws -> String {
            try await query(copy, sql)
        }
        let track = try await StoredTrack.of(copy)
        let lastMilliseconds = Double(track.last ?? 0)
        return Cut(integrity: try await read("PRAGMA integrity_check"),
                   openTrips: try await read("SELECT group_concat(id) FROM trip WHERE state = 'open'"),
                   points: "\(track.count)",
                   lastPointSecondOfDay: (lastMilliseconds / 1000).truncatingRemainder(dividingBy: 86_400))
    }

    /// Waits until the daemon has committed `count` track points (as another reader of the files sees them).
    private func waitForPoints(atLeast count: Int, in daemon: Trackd) async throws {
        let reached = await poll(upTo: 120) {
            (try? await StoredTrack.of(daemon.database).count) ?? 0 >= count
        }
        guard reached else { throw SubprocessError("trackd did not store \(count) track points: \(daemon.process.output)") }
    }
}
