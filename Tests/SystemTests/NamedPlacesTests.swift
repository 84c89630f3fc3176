import Foundation
import TestSupport
import Testing
import TrackCore

/// Named places through the real daemon and trackctl: a drive from one named place to another, recorded by trackd
/// from a file, shows both places with their addresses in `show`, `trips --json` and the exports, and the business
/// trip that ends at the customer's place gets the customer and the purpose.
@Suite(.serialized)
struct NamedPlacesTests {
    @Test func aDriveFromHomeToACustomerShowsBothPlacesAndTakesTheCustomersPurpose() async throws {
        let folder = try TemporaryFolder()
        let drive = folder.file("drive.nmea")
        try FileManager.default.copyItem(atPath: DriveLog.demo, toPath: drive)
        try DriveLog.appendParking(to: drive, seconds: 120)
        let coordinates = try PrivacyTests.driveCoordinates()
        let start = try #require(coordinates.first)
        let end = try #require(coordinates.last)
        // Through a FIFO: the drive's first seconds (parked at home, the trip started), then the rest once the places
        // are named, so that a busy machine's slow commands cannot outlast the drive (played whole at 20×, it once
        // ended before the second place was named: "trackd is not running").
        let feed = try DriveFeed(drive, at: folder.file("drive.fifo"))
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(feed.path)?speed=20", autoStart: "business")
        try await feed.give(through: 8 * 3600 + 5, while: daemon.process)
        #expect(await daemon.reached("2026-11-22T08:00:01"), "\(daemon.process.output)")
        let socket = ["--socket", daemon.socket]
        let home = try await trackctl(socket + ["place", "add", "Home", "--at", "\(start.latitude),\(start.longitude)",
                                                "--address", "Pärnu mnt 10, 10148 Tallinn"])
        #expect(home.status == 0, "\(home.error)")
        let customer = try await trackctl(socket + ["place", "add", "Example Ltd", "--at", "\(end.latitude),\(end.longitude)",
                                                    "--radius", "80", "--address", "Tartu mnt 1, Tallinn",
                                                    "--customer", "Example Ltd", "--purpose", "Delivery"])
        #expect(customer.status == 0, "\(customer.error)")
        #expect(customer.output.contains("place 2 'Example Ltd' named at"), "\(customer.output)")
        let listed = try json(await trackctl(socket + ["--json", "place", "list"]).output) as? [[String: Any]]
        #expect(listed?.map { $0["name"] as? String } == ["Home", "Example Ltd"])

        // The recording ends, trackd with it: the trip closes at its last fix, at the customer's.
        try await feed.finish(while: daemon.process)
        let ended = await poll(upTo: 180) { !daemon.process.isRunning }
        #expect(ended, "\(daemon.process.output)")

        let trips = try json(await trackctl(["--db", daemon.database, "--json", "trips", "--all"]).output) as? [[String: Any]]
        let trip = try #require(trips?.first)
        let startPlace = trip["start_place"] as? [String: Any]
        let endPlace = trip["end_place"] as? [String: Any]
        #expect(startPlace?["name"] as? String == "Home")
        #expect(startPlace?["address"] as? String == "Pärnu mnt 10, 10148 Tallinn")
        #expect(endPlace?["name"] as? String == "Example Ltd")
        #expect(endPlace?["address"] as? String == "Tartu mnt 1, Tallinn")
        #expect(trip["customer"] as? String == "Example Ltd")
        #expect(trip["purpose"] as? String == "Delivery")

        let show = try await trackctl(["--db", daemon.database, "show", "1"])
        #expect(show.status == 0, "\(show.error)")
        #expect(show.output.contains("from        Home, Pärnu mnt 10, 10148 Tallinn ("), "\(show.output)")
        #expect(show.output.contains("to          Example Ltd, Tartu mnt 1, Tallinn ("), "\(show.output)")
        #expect(show.output.contains("by trackd: filled from place 'Example Ltd'"), "\(show.output)")
        let table = try await trackctl(["--db", daemon.database, "trips", "--all"])
        #expect(table.output.contains("Home → Example Ltd"), "\(table.output)")

        // The exports: the CSV's place and address columns, the printable report's row, the month's files trackd wrote.
        let csv = try await trackctl(["--db", daemon.database, "export", "--format", "csv", "--all"])
        #expect(csv.status == 0, "\(csv.error)")
        let lines = csv.output.components(separatedBy: "\r\n")
        let header = lines.first?.replacingOccurrences(of: "\u{FEFF}", with: "").components(separatedBy: ",") ?? []
        let row = lines.count > 1 ? lines[1] : ""
        #expect(header.contains("start_place") && header.contains("end_address"), "\(header)")
        #expect(row.contains("Home,\"Pärnu mnt 10, 10148 Tallinn\",Example Ltd,\"Tartu mnt 1, Tallinn\""), "\(row)")
        let html = try await trackctl(["--db", daemon.database, "export", "--format", "html", "--all"])
        #expect(html.output.contains("Home<span class=\"address\"> (Pärnu mnt 10, 10148 Tallinn)</span>"))
        #expect(html.output.contains("Example Ltd<span class=\"address\"> (Tartu mnt 1, Tallinn)</span>"))
        let monthly = try String(contentsOfFile: "\(daemon.state)/exports/2026-11.csv", encoding: .utf8)
        #expect(monthly.contains("Example Ltd,\"Tartu mnt 1, Tallinn\""))

        let verify = try await trackctl(["--db", daemon.database, "verify"])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)")
    }
}
