import Foundation
import TestSupport
import Testing
import TrackCore

/// Classification rules through the real daemon and trackctl: a rule between two named places, a drive between them
/// recorded unclassified and stopped at the customer's, the trip classified by the rule as it closes and to confirm,
/// confirmed with `trackctl confirm`, its history naming the rule; the rule's deletion leaves the trip as it was.
@Suite(.serialized)
struct TripRulesTests {
    /// trackd on the bundled drive (then parked two minutes) through a FIFO, given its first seconds: an unclassified
    /// trip running at home; "Home" and `destination` named at the drive's first and last positions, `offset` metres
    /// east of them.
    static func parkedAtHome(_ folder: TemporaryFolder, destination: String,
                             offset: Double = 0) async throws -> (Trackd, DriveFeed) {
        let drive = folder.file("drive.nmea")
        try FileManager.default.copyItem(atPath: DriveLog.demo, toPath: drive)
        try DriveLog.appendParking(to: drive, seconds: 120)
        let coordinates = try PrivacyTests.driveCoordinates()
        let start = Geodesic.point(east: offset, north: 0, from: try #require(coordinates.first))
        let end = Geodesic.point(east: offset, north: 0, from: try #require(coordinates.last))
        let feed = try DriveFeed(drive, at: folder.file("drive.fifo"))
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(feed.path)?speed=20", autoStart: "unclassified")
        try await feed.give(through: 8 * 3600 + 5, while: daemon.process)
        #expect(await daemon.reached("2026-11-22T08:00:01"), "\(daemon.process.output)")
        let socket = ["--socket", daemon.socket]
        #expect(try await trackctl(socket + ["place", "add", "Home", "--at", "\(start.latitude),\(start.longitude)"]).status == 0)
        #expect(try await trackctl(socket + ["place", "add", destination, "--at", "\(end.latitude),\(end.longitude)",
                                             "--radius", "80"]).status == 0)
        return (daemon, feed)
    }

    /// The rest of the drive, parked at its end, and the trip stopped there.
    static func driveToTheEndAndStop(_ daemon: Trackd, _ feed: DriveFeed) async throws {
        try await feed.give(through: 8 * 3600 + 17 * 60 + 50, while: daemon.process)
        #expect(await daemon.reached("2026-11-22T08:17:50"), "\(daemon.process.output)")
        let stopped = try await trackctl(["--socket", daemon.socket, "stop"])
        #expect(stopped.status == 0, "\(stopped.error)")
    }

    @Test func aDriveBetweenARulesPlacesClosesClassifiedByItAndIsConfirmedByTheDriver() async throws {
        let folder = try TemporaryFolder()
        let (daemon, feed) = try await Self.parkedAtHome(folder, destination: "Example Ltd")
        let socket = ["--socket", daemon.socket]

        // Wrong input: said, and nothing kept.
        let half = try await trackctl(socket + ["rules", "add", "--from", "home", "--business", "--purpose", "Delivery"])
        #expect(half.status != 0)
        #expect(half.error.contains("give both --from and --to"), "\(half.error)")
        let nowhere = try await trackctl(socket + ["rules", "add", "--from", "home", "--to", "harbour", "--private"])
        #expect(nowhere.status != 0)
        #expect(nowhere.error.contains("there is no place 'harbour'; known: Home, Example Ltd"), "\(nowhere.error)")
        let noPurpose = try await trackctl(socket + ["rules", "add", "--from", "home", "--to", "example-ltd", "--business"])
        #expect(noPurpose.status != 0)
        #expect(noPurpose.error.contains("a business rule needs a purpose"), "\(noPurpose.error)")
        let hours = try await trackctl(socket + ["rules", "add", "--days", "mon-fri", "--hours", "18:00-08:00", "--private"])
        #expect(hours.status != 0)
        #expect(hours.error.contains("--hours"), "\(hours.error)")

        let added = try await trackctl(socket + ["rules", "add", "--from", "home", "--to", "example-ltd", "--either-way",
                                                 "--business", "--purpose", "Delivery", "--customer", "Example Ltd",
                                                 "--reason", "every delivery"])
        #expect(added.status == 0, "\(added.error)")
        #expect(added.output.contains("rule 1 added: Home ↔ Example Ltd → business (Delivery, Example Ltd)"), "\(added.output)")
        let list = try await trackctl(socket + ["rules"])
        #expect(list.output.contains("Home ↔ Example Ltd"), "\(list.output)")
        #expect(list.output.contains("active"), "\(list.output)")

        // The drive to the customer's, parked there, stopped: the trip closes classified by the rule.
        try await Self.driveToTheEndAndStop(daemon, feed)
        let trips = try json(await trackctl(socket + ["--json", "trips", "--all"]).output) as? [[String: Any]]
        let trip = try #require(trips?.first)
        #expect(trip["kind"] as? String == "business")
        #expect(trip["purpose"] as? String == "Delivery")
        #expect(trip["customer"] as? String == "Example Ltd")
        #expect((trip["rule"] as? [String: Any])?["text"] as? String == "Home ↔ Example Ltd")
        #expect(trip["to_confirm"] as? Bool == true)
        let table = try await trackctl(socket + ["trips", "--all"])
        #expect(table.output.contains("to confirm (by rule: Home ↔ Example Ltd)"), "\(table.output)")

        let confirmed = try await trackctl(socket + ["confirm", "--all"])
        #expect(confirmed.status == 0, "\(confirmed.error)")
        #expect(confirmed.output.contains("confirmed 1 trip: 1"), "\(confirmed.output)")
        let again = try await trackctl(socket + ["confirm", "1"])
        #expect(again.status != 0)
        #expect(again.error.contains("trip 1 has nothing to confirm: it was confirmed already"), "\(again.error)")

        let deleted = try await trackctl(socket + ["rules", "delete", "1", "--reason", "customer moved"])
        #expect(deleted.status == 0, "\(deleted.error)")
        let show = try await trackctl(socket + ["show", "1"])
        #expect(show.output.contains("rule        Home ↔ Example Ltd, confirmed"), "\(show.output)")
        #expect(show.output.contains("trip kind: \"unclassified\" → \"business\"  by trackd: by rule 1: Home ↔ Example Ltd"),
                "\(show.output)")
        #expect(show.output.contains("trip confirmed: \"no\" → \"yes\"  by "), "\(show.output)")
        #expect(try await trackctl(socket + ["--json", "trips", "--all"]).output.contains("\"kind\":\"business\""))

        try await feed.finish(while: daemon.process)
        let ended = await poll(upTo: 180) { !daemon.process.isRunning }
        #expect(ended, "\(daemon.process.output)")
        let verify = try await trackctl(["--db", daemon.database, "verify"])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)")
    }

    @Test func aDriveARuleMakesPrivateLeavesNoCoordinateOnTheCard() async throws {
        let folder = try TemporaryFolder()
        // The places 20 m off the drive's first and last positions: the log keeps a place's own coordinates.
        let (daemon, feed) = try await Self.parkedAtHome(folder, destination: "Office", offset: 20)
        let coordinates = try PrivacyTests.driveCoordinates()
        let socket = ["--socket", daemon.socket]
        let added = try await trackctl(socket + ["rules", "add", "--from", "home", "--to", "office", "--commute"])
        #expect(added.output.contains("rule 1 added: Home → Office → private (commute)"), "\(added.output)\(added.error)")

        try await Self.driveToTheEndAndStop(daemon, feed)
        let trips = try json(await trackctl(socket + ["--json", "trips", "--all"]).output) as? [[String: Any]]
        let trip = try #require(trips?.first)
        #expect(trip["kind"] as? String == "private")
        #expect(trip["commute"] as? Bool == true)
        #expect(trip["route"] as? String == "erased")
        // Privacy mode (the default): the log keeps no point and no position of the trip (only the places' own
        // coordinates, which the drive's are searched for in every file otherwise), and its WAL, the point file and
        // the exports hold none of the drive's positions.
        #expect(try await query(daemon.database, "SELECT COUNT(*) FROM track_point") == "0")
        #expect(try await query(daemon.database, "SELECT quote(start_lat) || quote(end_lon) FROM trip") == "NULLNULL")
        let files = StoredBytes(paths: [daemon.database + "-wal", daemon.database + "-points"],
                                folders: ["\(daemon.state)/exports"])
        #expect(files.files.contains { $0.path.hasSuffix("-points") }, "the point file is searched")
        let left = files.coordinates(of: coordinates)
        #expect(left.isEmpty, "\(left.prefix(5))")
        let verify = try await trackctl(socket + ["verify"])
        #expect(verify.output.contains("route of trip 1, now private"), "\(verify.output)")
        try await feed.finish(while: daemon.process)
        #expect(await poll(upTo: 180) { !daemon.process.isRunning }, "\(daemon.process.output)")
    }

    @Test func threeTripsClassifiedAlikeSuggestARuleThatTrackctlAddsOrDeclines() async throws {
        let folder = try TemporaryFolder()
        // Three drives from the office to the customer's, each a boot of its own (the recording's end is trackd's).
        for run in 1...3 {
            let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=60",
                                                autoStart: "unclassified", run: run)
            #expect(await poll(upTo: 300) { !daemon.process.isRunning }, "\(daemon.process.output)")
        }
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1", run: 4)
        let socket = ["--socket", daemon.socket]
        let coordinates = try PrivacyTests.driveCoordinates()
        let start = try #require(coordinates.first), end = try #require(coordinates.last)
        #expect(try await trackctl(socket + ["place", "add", "Office", "--at", "\(start.latitude),\(start.longitude)"]).status == 0)
        #expect(try await trackctl(socket + ["place", "add", "Example Ltd", "--at", "\(end.latitude),\(end.longitude)",
                                             "--radius", "80"]).status == 0)
        #expect(try await trackctl(socket + ["rules", "suggest"]).output.contains("no suggestions"))
        for trip in ["1", "2", "3"] {
            let edit = try await trackctl(socket + ["edit", trip, "--business", "--purpose", "Delivery", "--customer", "Example Ltd",
                                                    "--reason", "classified"])
            #expect(edit.status == 0, "\(edit.error)")
        }
        let suggested = try await trackctl(socket + ["rules", "suggest"])
        #expect(suggested.output.contains("1  Office → Example Ltd  business (Delivery, Example Ltd)  1, 2, 3"), "\(suggested.output)")

        let changed = try await trackctl(socket + ["rules", "add", "--suggestion", "1", "--private"])
        #expect(changed.status != 0)
        #expect(changed.error.contains("--suggestion adds the rule as suggested"), "\(changed.error)")
        let declined = try await trackctl(socket + ["rules", "decline", "1"])
        #expect(declined.output.contains("suggestion declined: Office → Example Ltd is not offered again"), "\(declined.output)\(declined.error)")
        #expect(try await trackctl(socket + ["rules", "suggest"]).output.contains("no suggestions"))
        #expect(try await trackctl(socket + ["rules"]).output.contains("declined"))
        let missing = try await trackctl(socket + ["rules", "add", "--suggestion", "1"])
        #expect(missing.error.contains("there is no suggestion 1"), "\(missing.error)")

        #expect(try await trackctl(socket + ["rules", "delete", "1", "--reason", "changed my mind"]).status == 0)
        let added = try await trackctl(socket + ["rules", "add", "--suggestion", "1"])
        #expect(added.output.contains("rule 2 added: Office → Example Ltd → business (Delivery, Example Ltd)"), "\(added.output)\(added.error)")
        #expect(try await trackctl(socket + ["rules", "suggest"]).output.contains("no suggestions"))
        let verify = try await trackctl(socket + ["verify"])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)")
        await daemon.stop()
    }
}
