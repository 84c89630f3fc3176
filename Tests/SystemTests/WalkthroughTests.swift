import Foundation
import TestSupport
import Testing

/// The README's walkthrough, command for command: a business trip over a replayed drive, a trip from a regular
/// trip, a reclassification with a reason, and the month exported as CSV, GPX and HTML.
@Suite(.serialized)
struct WalkthroughTests {
    /// The addresses a page's `src`, `href` and `url(...)` would fetch: all but those within the page (`#...`) and
    /// `data:` ones.
    static func fetchedAddresses(_ html: String) -> [String] {
        var addresses: [String] = []
        for opening in ["src=\"", "href=\"", "url("] {
            for part in html.components(separatedBy: opening).dropFirst() {
                let address = String(part.prefix { $0 != "\"" && $0 != ")" }).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
                if !address.hasPrefix("#") && !address.hasPrefix("data:") { addresses.append(address) }
            }
        }
        return addresses
    }

    @Test func aDriverKeepsTheMonthsLogFromStartToExport() async throws {
        let folder = try TemporaryFolder()
        // At 10× the drive lasts about 96 s: trackd (which ends with its file) outlives the commands after the stop
        // even under a sanitizer's slowdown (at 20× it ended before the last export under TSan).
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=10")
        let socket = ["--socket", daemon.socket]
        @discardableResult
        func run(_ arguments: [String]) async throws -> CommandResult {
            let result = try await trackctl(socket + arguments)
            #expect(result.status == 0, "trackctl \(arguments.joined(separator: " ")): \(result.error)")
            return result
        }

        try await run(["profile", "set", "--driver", "Anna Tamm", "--plate", "123 ABC", "--company", "Tamm OÜ",
                 "--time-zone", "Europe/Tallinn"])
        try await run(["odometer", "set", "48210.4", "--reason", "dashboard at the start of the month"])
        let started = try await run(["start", "--business", "--customer", "Example Ltd"])
        #expect(started.output.contains("trip 1 started"))
        // Drive until the replayed log has covered some kilometres.
        var driving: [String: Any]?
        let drove = await poll(upTo: 120) {
            driving = try? json(await trackctl(socket + ["--json", "status"]).output) as? [String: Any]
            return ((driving?["trip"] as? [String: Any])?["distance_m"] as? Double ?? 0) > 5000
        }
        #expect(drove, "\(daemon.process.output)")
        // The status shows the trip, the speed and the odometer counting on from the dashboard reading.
        let tripSoFar = try #require((driving?["trip"] as? [String: Any])?["distance_m"] as? Double)
        let odometerNow = try #require(driving?["odometer"] as? Double)
        #expect(abs(odometerNow - (48210.4 + tripSoFar / 1000)) < 0.001)
        #expect((driving?["last_position"] as? [String: Any])?["speed"] != nil)
        let glance = try await run(["status"]).output
        #expect(glance.contains("trip     1, business"))
        #expect((driving?["trip"] as? [String: Any])?["purpose"] == nil, "no purpose yet: it is given at the stop")
        #expect(glance.contains("odometer 48"))
        let stopped = try await run(["stop", "--purpose", "Visit to Example Ltd"])
        #expect(stopped.output.contains("trip 1 ended"))
        #expect(stopped.output.contains("business (Visit to Example Ltd)"))

        try await run(["regular", "add", "office", "--distance", "18.4", "--business", "--purpose", "Office",
                 "--destination", "Harbour office"])
        try await run(["add", "--date", "2026-11-22", "--regular", "office"])
        try await run(["edit", "1", "--private", "--reason", "Drove home, not to the client"])

        let trips = try json(await run(["--json", "trips", "--all"]).output) as? [[String: Any]]
        #expect(trips?.count == 2)
        #expect(trips?.first?["kind"] as? String == "private")
        #expect(trips?.last?["source"] as? String == "regular")
        #expect(trips?.first?["odometer_start"] as? Double == 48210.4)
        let firstEnd = try #require(trips?.first?["odometer_end"] as? Double)
        #expect(abs((trips?.last?["odometer_end"] as? Double ?? 0) - (firstEnd + 18.4)) < 0.001)

        // The month, as a spreadsheet, a GPS track and a printable report.
        try await run(["export", "--format", "csv", "--month", "2026-11", "--output", folder.file("2026-11.csv")])
        try await run(["export", "--format", "gpx", "--month", "2026-11", "--output", folder.file("2026-11.gpx")])
        try await run(["export", "--format", "html", "--month", "2026-11", "--output", folder.file("2026-11.html")])

        let csv = try String(contentsOfFile: folder.file("2026-11.csv"), encoding: .utf8)
        let rows = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.count == 1 + 2 + 3, "header, two trips, three total rows")
        #expect(rows.dropFirst().first?.contains(",private,Visit to Example Ltd,Example Ltd,") == true)
        #expect(rows.dropFirst().first?.contains("Anna Tamm,123 ABC,Tamm OÜ") == true)

        let schema = "\(Products.root)/Tests/TrackReportsTests/Fixtures/gpx-1.1.xsd"
        let xmllint = Process()
        xmllint.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        xmllint.arguments = ["--noout", "--nonet", "--schema", schema, folder.file("2026-11.gpx")]
        try xmllint.run()
        xmllint.waitUntilExit()
        #expect(xmllint.terminationStatus == 0, "the GPX export is valid GPX 1.1")
        let gpx = try String(contentsOfFile: folder.file("2026-11.gpx"), encoding: .utf8)
        // Privacy mode (the default): the GPS trip lost its route when it became private; the regular trip has none.
        #expect(gpx.components(separatedBy: "<trk>").count - 1 == 0, "no track")
        #expect(gpx.contains("route erased"))

        let html = try String(contentsOfFile: folder.file("2026-11.html"), encoding: .utf8)
        for text in ["Anna Tamm", "123 ABC", "Tamm OÜ", "November 2026", "Drove home, not to the client", "route erased"] {
            #expect(html.contains(text), "the report shows \(text)")
        }
        // Nothing is fetched: no script, style sheet, frame or font from elsewhere, no address in a src or href
        // (the XHTML and SVG namespaces are names, not fetched), no url() in the style.
        let fetched = Self.fetchedAddresses(html)
        #expect(fetched.isEmpty, "the report fetches \(fetched)")
        #expect(!html.contains("<script") && !html.contains("<link") && !html.contains("<iframe") && !html.contains("@import"))

        // The daemon's own plain files for a card reader.
        #expect(FileManager.default.fileExists(atPath: folder.file("exports/2026-11.csv")))
        // Trip 1's GPX went with its route when it became private; the regular trip has no track to draw.
        #expect(!FileManager.default.fileExists(atPath: folder.file("exports/2026-11-22-trip-1.gpx")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("exports")) == ["2026-11.csv"])
        await daemon.stop()
    }

    @Test func aLogPulledOffTheCardIsReadWithoutTheDaemonAndWithoutChangingIt() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=20", autoStart: "unclassified")
        #expect(await poll(upTo: 120) { (try? await StoredTrack.of(daemon.database).count) ?? 0 > 100 },
                "\(daemon.process.output)")
        // The ignition goes off; the card is pulled with its -wal, -shm and the running trip's point file beside the
        // database.
        await daemon.kill()
        #expect(FileManager.default.fileExists(atPath: daemon.database + "-wal"))
        let files = [daemon.database, daemon.database + "-wal", daemon.database + "-shm", daemon.database + "-points"]
        let before = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }

        let trips = try await trackctl(["--db", daemon.database, "--json", "trips", "--all"])
        #expect(trips.status == 0, "\(trips.error)")
        let list = try json(trips.output) as? [[String: Any]]
        #expect(list?.first?["state"] as? String == "open", "the cut trip is there, as the card holds it")
        #expect(try await trackctl(["--db", daemon.database, "verify"]).status == 0)
        let detail = try json(await trackctl(["--db", daemon.database, "--json", "show", "1"]).output) as? [String: Any]
        #expect(detail?["track_points"] as? Int ?? 0 > 100, "its track up to the cut is readable")

        let refused = try await trackctl(["--db", daemon.database, "edit", "1", "--business", "--purpose", "x", "--reason", "y"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("--db only reads"))
        let after = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(after == before, "the card's files are byte for byte as they were")
    }

    @Test func aBusinessStopOnATerminalAsksForThePurposeButAScriptIsNotAsked() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=4")
        let socket = ["--socket", daemon.socket]

        // From a script: no question, the trip ends without a purpose and says how to add one.
        #expect(try await trackctl(socket + ["start", "--business"]).status == 0)
        let quiet = try await trackctl(socket + ["stop"])
        #expect(quiet.status == 0)
        #expect(quiet.output.contains("needs a purpose"))

        // On a terminal (script(1) gives trackctl a pseudo-terminal): asked, and the answer is the purpose.
        #expect(try await trackctl(socket + ["start", "--business"]).status == 0)
        let command = ([Products.trackctl] + socket + ["stop"]).joined(separator: " ")
        let (status, printed) = try await offload { () throws -> (Int32, String) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
            input.fileHandleForWriting.write(Data("Visit to Example Ltd\n".utf8))
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, printed)
        }
        #expect(status == 0, "\(printed)")
        #expect(printed.contains("Purpose of business trip 2"))
        #expect(printed.contains("trip 2 ended"))
        #expect(try await query(daemon.database, "SELECT purpose FROM trip WHERE id = 2") == "Visit to Example Ltd")
        #expect(try await query(daemon.database, "SELECT purpose IS NULL FROM trip WHERE id = 1") == "1")
        await daemon.stop()
    }

    @Test func aTripStartedBeforeTheFirstFixSaysItWaitsForOne() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "serial://\(folder.file("no-receiver"))?baud=9600")
        let started = try await trackctl(["--socket", daemon.socket, "start", "--private"])
        #expect(started.status == 0, "\(started.error)")
        #expect(started.output.contains("no GPS fix yet"), "\(started.output)")
        let again = try await trackctl(["--socket", daemon.socket, "start", "--private"])
        #expect(again.status == 1)
        #expect(again.error.contains("trip 1 (private) is already running; stop it first"))
        await daemon.stop()
    }

    @Test func badInputGetsOneClearSentenceAndANonZeroExit() async throws {
        let folder = try TemporaryFolder()
        // At 10× the drive lasts about 96 s: trackd (which ends with its file) outlives the commands after the stop
        // even under a sanitizer's slowdown (at 20× it ended before the last export under TSan).
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=10")
        let socket = ["--socket", daemon.socket]
        _ = try await trackctl(socket + ["odometer", "set", "1000", "--reason", "first"])
        let ledger = try await query(daemon.database, "SELECT COUNT(*) FROM ledger")

        let cases: [([String], String)] = [
            (socket + ["show", "42"], "there is no trip 42"),
            (socket + ["trips", "--month", "2026-13"], "'2026-13' is not a month"),
            (socket + ["trips", "--from", "2026-11-20", "--to", "2026-11-01"], "runs backwards"),
            (socket + ["edit", "1", "--private"], "--reason"),
            (socket + ["odometer", "set", "900", "--reason", "typo"], "lower than the last reading"),
            (socket + ["add", "--date", "2026-11-22", "--regular", "nowhere"], "no regular trip 'nowhere'"),
            (["--db", folder.file("missing.sqlite"), "trips", "--month", "2026-11"], "no such file"),
        ]
        for (arguments, expected) in cases {
            let result = try await trackctl(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.error.contains(expected), "\(arguments): \(result.error)")
        }
        let asJSON = try await trackctl(socket + ["--json", "show", "42"])
        let error = try #require((try json(asJSON.output) as? [String: Any])?["error"] as? [String: Any])
        #expect(error["code"] as? Int == -32011)
        #expect(error["exit_status"] as? Int == 1)
        #expect((error["message"] as? String)?.contains("there is no trip 42") == true)
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: folder.file("notes.sqlite")))
        // A period named, as everywhere: the file is refused before any month is read, whatever day it is.
        let garbage = try await trackctl(["--db", folder.file("notes.sqlite"), "trips", "--month", "2026-11"])
        #expect(garbage.status != 0)
        #expect(garbage.error.contains("not an SQLite database"))
        #expect(try await query(daemon.database, "SELECT COUNT(*) FROM ledger") == ledger, "nothing was written")
        await daemon.stop()
    }
}
