import Foundation
import Testing
import TestSupport
import TrackCore

/// A new board's first run on the page (docs/web.md, "First run"; docs/setup.md): the phone that claims it with the
/// owner code is shown the profile, the odometer, the receiver and the OBD-II adapter, then Now. Debian's Chromium,
/// headless at a phone's 390×844, driven by Selenium (Tests/Browser/first_run.py) against a real trackd (a serial
/// receiver on a pseudo-terminal, an ELM327 emulator as the adapter, found by `auto` once plugged in) and a real
/// trackd-web.
@Suite(.serialized) struct WebFirstRunTests {
    @Test func theFirstPhoneSetsUpTheLogOnTheFirstRunSeesTheReceiverComeLiveAndIsNotShownItAgain() async throws {
        let folder = try TemporaryFolder()
        try Data("4821-7730-1193\n".utf8).write(to: URL(fileURLWithPath: folder.file("owner-code")))
        // The car parked: a second of the bundled drive, then the same position once a second, played by a receiver
        // on a pseudo-terminal once the page shows the receiver waiting (below).
        let drive = folder.file("parked.nmea")
        try DriveLog.piece(of: DriveLog.demo, seconds: 1, to: drive)
        let emulator = try await ELM327Emulator(link: .pseudoTerminal, in: folder.path)
        defer { emulator.stop() }
        let adapter = try #require(emulator.devicePath)
        let link = folder.file("gps0")
        // The card image's `obd.adapter: auto`, looking in a folder of the test's that stands for /dev: empty until
        // the adapter is plugged in with the receiver (below).
        let devices = folder.file("dev")
        try FileManager.default.createDirectory(atPath: devices, withIntermediateDirectories: true)
        // No auto_start: the log takes a dashboard reading between trips only (docs/web.md, "First run").
        let daemon = try await Trackd.start(state: folder.path, source: "serial://\(link)?baud=9600",
                                            configuration: "obd:\n  adapter: auto\n",
                                            environment: ["TRACKD_OBD_DEVICES": devices])
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket,
                                            more: ["--owner-code-file", folder.file("owner-code")])
        let out = ProcessInfo.processInfo.environment["TRACKD_FIRST_RUN_SHOTS"] ?? folder.file("first-run")
        let browser = try TestSubprocess(
            executable: "/usr/bin/python3",
            arguments: ["\(Products.root)/Tests/Browser/first_run.py", "--url", web.origin,
                        "--trackctl", Products.trackctl, "--socket", daemon.socket, "--owner-code", "4821 7730 1193",
                        "--link", link, "--out", out],
            outputPath: folder.file("browser.log"))
        #expect(await poll(upTo: TestPatience.seconds(600)) { browser.output.contains("step 5:") || !browser.isRunning },
                "\(browser.output)")
        try FileManager.default.createSymbolicLink(atPath: "\(devices)/ttyUSB0", withDestinationPath: adapter)
        let receiver = try TestSubprocess(executable: Products.trackctl,
                                          arguments: ["play", drive, "--link", link, "--speed", "1"],
                                          outputPath: folder.file("play.log"))
        defer { receiver.stop() }
        #expect(await poll(upTo: TestPatience.seconds(900)) { !browser.isRunning })
        #expect(browser.exitStatus == 0, "\(browser.output)\ntrackd-web: \(web.process.output.suffix(3000))")
        let figures = try json(String(contentsOfFile: "\(out)/figures.json", encoding: .utf8)) as? [String: Any]
        #expect((figures?["steps"] as? [String])?.count == 8, "\(figures ?? [:])")
        for shot in ["1-profile", "2-odometer", "3-receiver-waiting", "3-receiver", "4-now", "5-settings"] {
            #expect(FileManager.default.fileExists(atPath: "\(out)/first-run-\(shot).png"), "first-run-\(shot).png")
        }

        // What the log holds, read past the page: the profile as Settings left it, the reading as the first run gave it.
        let profile = try await trackctl(["--socket", daemon.socket, "--json", "profile"])
        let fields = try json(profile.output) as? [String: Any]
        #expect(fields?["driver"] as? String == "Anna Tamm" && fields?["plate"] as? String == "AB12 CDE", "\(profile.output)")
        #expect(fields?["country"] as? String == "DE" && fields?["unit"] == nil && fields?["rate"] as? Int == 300
                    && fields?["car"] as? String == "company" && fields?["time_zone"] as? String == "Europe/London",
                "\(profile.output)")
        let odometer = try await trackctl(["--socket", daemon.socket, "--json", "odometer"])
        let readings = (try json(odometer.output) as? [String: Any])?["readings"] as? [[String: Any]] ?? []
        #expect(readings.count == 1 && (readings.first?["reading_m"] as? Double).map { abs($0 - 31415.9 * 1609.344) < 0.5 } == true,
                "\(odometer.output)")
        // Each change of the first run is in the profile's history with its reason, as trackctl's would be.
        let reasons = try await query(daemon.database, "SELECT DISTINCT reason FROM revision WHERE subject = 'profile' ORDER BY reason")
        #expect(reasons.contains("the first run on the page") && reasons.contains("the car moved to Germany"), "\(reasons)")
        browser.stop()
        await daemon.stop()
        web.process.stop()
    }

    @Test func theCountrySelectsOfferEveryCountryTrackdKnowsAndNone() throws {
        let page = try String(contentsOfFile: "\(Products.root)/web/index.html", encoding: .utf8)
        let selects = page.components(separatedBy: "<select ").dropFirst().filter { $0.contains("data-countries") }
        #expect(selects.count == 2, "the first run's and Settings'")
        for select in selects {
            let body = select.components(separatedBy: "</select>")[0]
            let values = body.components(separatedBy: "<option value=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
            #expect(values.map(String.init) == [""] + Country.allCases.map(\.rawValue), "\(body)")
        }
        // The page's own table of the countries has each with the unit its tax office counts in.
        let script = try String(contentsOfFile: "\(Products.root)/web/core.js", encoding: .utf8)
        for country in Country.allCases {
            #expect(script.contains("\(country.rawValue): { unit: '\(country.unit.rawValue)', currency: "), "\(country)")
        }
    }
}
