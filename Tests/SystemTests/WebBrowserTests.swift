import Foundation
import Testing
import TestSupport
import TrackWebClient
import TrackCore

/// The driver's page in a real browser: Debian's Chromium, headless at a phone's 390×844, driven through
/// chromium-driver by Selenium (Tests/Browser/drivers_day.py) while trackd plays a recorded drive; the month's
/// report sent by e-mail from the page reaches a real SMTP server.
@Suite(.serialized) struct WebBrowserTests {
    @Test func aDriversWholeDayWorksInTheBrowser() async throws {
        let folder = try TemporaryFolder()
        // The bundled drive at eight times its pace (about two minutes), then the car parked where it ended, played by
        // a receiver on a pseudo-terminal (trackctl play).
        let drive = folder.file("drive.nmea")
        try FileManager.default.copyItem(atPath: DriveLog.demo, toPath: drive)
        try DriveLog.appendParking(to: drive, seconds: 3600)
        // The month's report by e-mail, to a real SMTP server on loopback, only when asked (the page's button).
        let server = try SMTPServer(in: folder)
        try await server.start()
        let mail = """
            mail:
              to: driver@example.org
              from: trackd@example.org
              msmtp_config: \(try server.msmtpConfiguration(at: folder.file("msmtprc")))
              monthly: false
            """
        // The receiver is plugged in once the browser has paired (below): Chromium's start is the slow part of a
        // loaded machine, and the steps that need the car moving must have the drive whatever the load. Until then
        // trackd runs and waits for its receiver, so the page has nothing to refuse.
        let link = folder.file("gps0")
        let daemon = try await Trackd.start(state: folder.path, source: "serial://\(link)?baud=9600",
                                            autoStart: "unclassified", configuration: mail)
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket)
        // The demo drive's last fix (08:15:57); the parking follows it.
        let browser = try BrowserScript("drivers_day", web: web, controlSocket: daemon.socket, folder: folder,
                                        extra: ["--month", "2026-11", "--parked-from", "2026-11-22T08:15:58"])
        #expect(await poll(upTo: TestPatience.seconds(600)) { browser.output.contains("step 2:") || !browser.isRunning },
                "\(browser.output)")
        let receiver = try TestSubprocess(executable: Products.trackctl,
                                          arguments: ["play", drive, "--link", link, "--speed", "8"],
                                          outputPath: folder.file("play.log"))
        defer { receiver.stop() }
        try await browser.finish(steps: 13, patience: 900)
        // The button's mail: once, with the month's table as trackctl exports it.
        let messages = try server.messages()
        #expect(messages.count == 1)
        let csv = try messages.first.map { try ParsedMail.parse($0) }?.parts.first { $0.fileName == "2026-11.csv" }
        // (The export the script made when it sent it: its last step turns the profile to miles.)
        let exported = String(decoding: try Data(contentsOf: URL(fileURLWithPath: "\(browser.out)/trackctl-export.csv")), as: UTF8.self)
        #expect(csv.map { String(decoding: $0.bytes, as: UTF8.self) } == exported)
        browser.process.stop()
        await daemon.stop()
        web.process.stop()
    }

    /// Rules on the page (Tests/Browser/rules_day.py): the driver adds a rule in Settings; trackd records three trips
    /// of the drive, each closing classified by it and to confirm; one is confirmed with one tap, the others with
    /// "Confirm all"; the trip's history names the rule.
    @Test func theRulesClassifyTheTripsAndOneTapConfirmsThem() async throws {
        let folder = try TemporaryFolder()
        let drive = folder.file("drive.nmea")
        try FileManager.default.copyItem(atPath: DriveLog.demo, toPath: drive)
        try DriveLog.appendParking(to: drive, seconds: 120)
        let feed = try DriveFeed(drive, at: folder.file("drive.fifo"))
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(feed.path)?speed=20", autoStart: "unclassified")
        let socket = ["--socket", daemon.socket]
        #expect(try await trackctl(socket + ["profile", "set", "--driver", "Anna", "--plate", "481 BKS"]).status == 0)
        try await feed.give(through: 8 * 3600 + 5, while: daemon.process)
        #expect(await daemon.reached("2026-11-22T08:00:01"), "\(daemon.process.output)")
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket)
        let browser = try BrowserScript("rules_day", web: web, controlSocket: daemon.socket, folder: folder)
        #expect(await poll(upTo: TestPatience.seconds(600)) { browser.output.contains("rule added") || !browser.isRunning },
                "\(browser.output)")
        // Three trips of the drive, each stopped and the next started by trackctl, as a driver's day would have them.
        for (number, end) in [(1, "08:05:00"), (2, "08:10:00"), (3, "08:17:50")] {
            let parts = end.split(separator: ":").compactMap { Double($0) }
            try await feed.give(through: parts[0] * 3600 + parts[1] * 60 + parts[2], while: daemon.process)
            #expect(await daemon.reached("2026-11-22T\(end)"), "\(daemon.process.output)")
            let stopped = try await trackctl(socket + ["stop"])
            #expect(stopped.status == 0, "trip \(number): \(stopped.error)")
            if number < 3 { #expect(try await trackctl(socket + ["start", "--unclassified"]).status == 0) }
        }
        try await browser.finish(steps: 6, patience: 900)
        try await feed.finish(while: daemon.process)
        await daemon.stop()
        web.process.stop()
    }

    /// The page on the home screen (Tests/Browser/install.py): Chromium reads the manifest without errors and finds
    /// nothing that keeps the page from being installed; the manifest and its icons are served without a session.
    @Test func chromiumCanInstallThePageFromItsManifest() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1")
        #expect(try await trackctl(["--socket", daemon.socket, "profile", "set", "--driver", "Anna", "--plate", "481 BKS"]).status == 0)
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket)
        for path in ["/manifest.json", "/icon-192.png", "/icon-512.png", "/icon-maskable-512.png"] {
            let answer = try await web.request("GET", path, origin: nil)
            #expect(answer.status == 200, "\(path) without a session: \(answer.status)")
        }
        let browser = try BrowserScript("install", web: web, controlSocket: daemon.socket, folder: folder)
        try await browser.finish(steps: 3, patience: 300)
        await daemon.stop()
        web.process.stop()
    }

    /// The page out of the car's Wi-Fi (Tests/Browser/offline.py): trips listed through the service worker, then
    /// trackd-web stopped; the page reloaded lists them marked old, and a change is refused at once.
    @Test func outOfReachThePageShowsWhatTheBoardLastSaidMarkedOldAndChangesNothing() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1")
        let socket = ["--socket", daemon.socket]
        #expect(try await trackctl(socket + ["profile", "set", "--driver", "Anna", "--plate", "481 BKS"]).status == 0)
        #expect(try await trackctl(socket + ["add", "--date", "2026-11-23", "--distance", "12.4", "--business",
                                             "--purpose", "Delivery", "--reason", "forgot to start"]).status == 0)
        #expect(try await trackctl(socket + ["add", "--date", "2026-11-24", "--distance", "8.3", "--reason", "forgot to start"]).status == 0)
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket)
        let browser = try BrowserScript("offline", web: web, controlSocket: daemon.socket, folder: folder)
        #expect(await poll(upTo: TestPatience.seconds(300)) { browser.output.contains("ready for the board to go") || !browser.isRunning },
                "\(browser.output)")
        web.process.stop()
        try await browser.finish(steps: 5, patience: 300)
        #expect(try await trackctl(socket + ["--json", "show", "2"]).output.contains("\"kind\":\"unclassified\""),
                "the refused change changed nothing")
        await daemon.stop()
    }

    /// Every screen for everyone (Tests/Browser/accessibility.py): axe-core light and dark, the Tab key, 200 % zoom;
    /// the first run's steps and the dialogs too.
    @Test func everyScreenPassesAxeLightAndDarkIsReachedByKeyboardAndFitsAt200Percent() async throws {
        let axe = try Self.axeScript()
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1")
        let socket = ["--socket", daemon.socket]
        #expect(try await trackctl(socket + ["profile", "set", "--driver", "Anna", "--plate", "B-AN 481", "--country", "DE"]).status == 0)
        #expect(try await trackctl(socket + ["add", "--date", "2026-11-23", "--distance", "12.4", "--business",
                                             "--purpose", "Delivery", "--customer", "Example Ltd", "--reason", "forgot to start"]).status == 0)
        #expect(try await trackctl(socket + ["place", "add", "Office", "--at", "59.437,24.7536"]).status == 0)
        #expect(try await trackctl(socket + ["rules", "add", "--days", "mon-fri", "--hours", "08:00-17:00", "--business",
                                             "--purpose", "Deliveries"]).status == 0)
        // A business trip with its purpose running: the stop dialog opens from Now.
        #expect(try await trackctl(socket + ["start", "--business", "--purpose", "Client visit"]).status == 0)
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket)
        let browser = try BrowserScript("accessibility", web: web, controlSocket: daemon.socket, folder: folder, extra: ["--axe", axe])
        try await browser.finish(steps: 4, patience: 600)
        await daemon.stop()
        web.process.stop()
    }

    /// The page in German and Estonian (Tests/Browser/languages.py): the profile's language, this device's own choice,
    /// and the browser's; every screen and dialog with no English word of the page's left, axe-core's serious and
    /// critical rules passed, nothing wider than the phone; a 24-hour clock and a decimal comma.
    @Test func everyScreenSpeaksTheProfilesTheDevicesOrTheBrowsersLanguageWithItsNumbersAndTimes() async throws {
        let axe = try Self.axeScript()
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1")
        let socket = ["--socket", daemon.socket]
        #expect(try await trackctl(socket + ["profile", "set", "--driver", "Anna", "--plate", "B-AN 481", "--country", "DE",
                                             "--time-zone", "Europe/Berlin", "--language", "de"]).status == 0)
        #expect(try await trackctl(socket + ["add", "--date", "2026-11-23", "--start", "14:05", "--end", "14:40",
                                             "--distance", "12.4", "--business", "--purpose", "Lieferung",
                                             "--customer", "Beispiel GmbH", "--reason", "Gerät war aus"]).status == 0)
        #expect(try await trackctl(socket + ["place", "add", "Büro", "--at", "59.437,24.7536"]).status == 0)
        #expect(try await trackctl(socket + ["rules", "add", "--days", "mon-fri", "--hours", "08:00-17:00", "--business",
                                             "--purpose", "Lieferungen"]).status == 0)
        #expect(try await trackctl(socket + ["start", "--business", "--purpose", "Kundentermin"]).status == 0)
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket)
        let browser = try BrowserScript("languages", web: web, controlSocket: daemon.socket, folder: folder,
                                        extra: ["--axe", axe, "--web", "\(Products.root)/web"])
        try await browser.finish(steps: 6, patience: 900)
        await daemon.stop()
        web.process.stop()
    }

    /// The list's one tap (Tests/Browser/one_tap.py): three trips of the drive in a German log, two unclassified and one
    /// an hours rule classified; the places and the amount in the list, a tap and its undo for each kind of trip.
    @Test func theListNamesThePlacesAndOneTapClassifiesOrConfirmsATripWithAnUndo() async throws {
        let folder = try TemporaryFolder()
        let drive = folder.file("drive.nmea")
        try FileManager.default.copyItem(atPath: DriveLog.demo, toPath: drive)
        try DriveLog.appendParking(to: drive, seconds: 120)
        let feed = try DriveFeed(drive, at: folder.file("drive.fifo"))
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(feed.path)?speed=20", autoStart: "unclassified")
        let socket = ["--socket", daemon.socket]
        #expect(try await trackctl(socket + ["profile", "set", "--driver", "Anna", "--plate", "B-AN 481", "--country", "DE"]).status == 0)
        let coordinates = try PrivacyTests.driveCoordinates()
        let start = try #require(coordinates.first), end = try #require(coordinates.last)
        #expect(try await trackctl(socket + ["place", "add", "Office", "--at", "\(start.latitude),\(start.longitude)"]).status == 0)
        #expect(try await trackctl(socket + ["place", "add", "Example Ltd", "--at", "\(end.latitude),\(end.longitude)",
                                             "--radius", "80"]).status == 0)
        try await feed.give(through: 8 * 3600 + 5, while: daemon.process)
        #expect(await daemon.reached("2026-11-22T08:00:01"), "\(daemon.process.output)")
        for (number, end) in [(1, "08:05:00"), (2, "08:10:00"), (3, "08:17:50")] {
            let parts = end.split(separator: ":").compactMap { Double($0) }
            try await feed.give(through: parts[0] * 3600 + parts[1] * 60 + parts[2], while: daemon.process)
            #expect(await daemon.reached("2026-11-22T\(end)"), "\(daemon.process.output)")
            let stopped = try await trackctl(socket + ["stop"])
            #expect(stopped.status == 0, "trip \(number): \(stopped.error)")
            if number == 2 {
                #expect(try await trackctl(socket + ["rules", "add", "--days", "mon-sun", "--hours", "06:00-22:00",
                                                     "--business", "--purpose", "Deliveries"]).status == 0)
            }
            if number < 3 { #expect(try await trackctl(socket + ["start", "--unclassified"]).status == 0) }
        }
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket)
        let browser = try BrowserScript("one_tap", web: web, controlSocket: daemon.socket, folder: folder)
        try await browser.finish(steps: 6, patience: 900)
        try await feed.finish(while: daemon.process)
        await daemon.stop()
        web.process.stop()
    }

    /// A week with rules (Tests/Browser/rules_week.py): three days' drives from the office to a customer's, classified
    /// by the driver on the page; the rule the page then suggests, accepted; two more days' drives closing classified by
    /// it, each confirmed with one tap; the history naming the rule.
    @Test func aRuleSuggestedAfterTheThirdTripClassifiesTheNextOnesAndOneTapConfirmsThem() async throws {
        let folder = try TemporaryFolder()
        // Each day's drive a boot of its own: trackd records it and stops at the recording's end.
        func drive(day: Int, run: Int) async throws {
            let file = folder.file("drive-\(day).nmea")
            try Self.demoDrive(onNovemberDay: day, to: file)
            let daemon = try await Trackd.start(state: folder.path, source: "file://\(file)?speed=60",
                                                autoStart: "unclassified", run: run)
            #expect(await poll(upTo: TestPatience.seconds(300)) { !daemon.process.isRunning }, "\(daemon.process.output)")
        }
        for day in 16...18 { try await drive(day: day, run: day) }
        var daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1", run: 1)
        let socket = ["--socket", daemon.socket]
        #expect(try await trackctl(socket + ["profile", "set", "--driver", "Anna", "--plate", "481 BKS"]).status == 0)
        let coordinates = try PrivacyTests.driveCoordinates()
        let start = try #require(coordinates.first), end = try #require(coordinates.last)
        #expect(try await trackctl(socket + ["place", "add", "Office", "--at", "\(start.latitude),\(start.longitude)"]).status == 0)
        #expect(try await trackctl(socket + ["place", "add", "Example Ltd", "--at", "\(end.latitude),\(end.longitude)",
                                             "--radius", "80"]).status == 0)
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket)
        let browser = try BrowserScript("rules_week", web: web, controlSocket: daemon.socket, folder: folder)
        #expect(await poll(upTo: TestPatience.seconds(600)) { browser.output.contains("rule accepted") || !browser.isRunning },
                "\(browser.output)")
        await daemon.stop()
        for day in 19...20 { try await drive(day: day, run: day) }
        daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1", run: 2)
        try await browser.finish(steps: 8, patience: 900)
        await daemon.stop()
        web.process.stop()
    }

    /// The bundled drive on another day of November 2026: each RMC sentence's date changed, its checksum made again.
    static func demoDrive(onNovemberDay day: Int, to path: String) throws {
        let text = try String(contentsOfFile: DriveLog.demo, encoding: .utf8)
        let lines = text.components(separatedBy: "\r\n").map { line -> String in
            guard line.dropFirst(3).hasPrefix("RMC"), let star = line.lastIndex(of: "*") else { return line }
            var fields = line[line.index(after: line.startIndex)..<star].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count > 9 else { return line }
            fields[9] = String(format: "%02d1126", day)
            let body = fields.joined(separator: ",")
            let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            return "$" + body + String(format: "*%02X", checksum)
        }
        try Data(lines.joined(separator: "\r\n").utf8).write(to: URL(fileURLWithPath: path))
    }

    /// axe-core's script as scripts/axe-core installs it (TRACKD_AXE, else the cache folder's).
    static func axeScript(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let cache = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (ProcessInfo.processInfo.environment["HOME"] ?? "/root") + "/.cache"
        let axe = ProcessInfo.processInfo.environment["TRACKD_AXE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "\(cache)/trackd/axe-selenium-python-2.1.6/axe.min.js"
        try #require(FileManager.default.fileExists(atPath: axe), "axe-core is not installed at \(axe): run scripts/axe-core",
                     sourceLocation: sourceLocation)
        return axe
    }
}
