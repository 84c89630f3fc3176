import Foundation
import Testing
import TestSupport

/// The driver's page in a real browser: Debian's Chromium, headless at a phone's 390×844, driven through
/// chromium-driver by Selenium (Tests/Browser/drivers_day.py) while trackd plays a recorded drive.
@Suite(.serialized) struct WebBrowserTests {
    @Test func aDriversWholeDayWorksInTheBrowser() async throws {
        let folder = try TemporaryFolder()
        // The bundled drive at eight times its pace (about two minutes), then the car parked where it ended.
        let drive = folder.file("drive.nmea")
        try FileManager.default.copyItem(atPath: DriveLog.demo, toPath: drive)
        try DriveLog.appendParking(to: drive, seconds: 3600)
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(drive)?speed=8",
                                            autoStart: "unclassified")
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket)
        let out = ProcessInfo.processInfo.environment["TRACKD_WEB_SHOTS"] ?? folder.file("browser")
        let browser = try TestSubprocess(
            executable: "/usr/bin/python3",
            arguments: ["\(Products.root)/Tests/Browser/drivers_day.py", "--url", web.origin,
                        "--trackctl", Products.trackctl, "--socket", daemon.socket, "--admin-socket", web.adminSocket,
                        "--month", "2026-11", "--out", out],
            outputPath: folder.file("browser.log"))
        #expect(await poll(upTo: TestPatience.seconds(900)) { !browser.isRunning })
        #expect(browser.exitStatus == 0, "\(browser.output)\ntrackd-web: \(web.process.output.suffix(3000))")
        let figures = try json(String(contentsOfFile: "\(out)/figures.json", encoding: .utf8)) as? [String: Any]
        #expect((figures?["steps"] as? [String])?.count == 11, "\(figures ?? [:])")
        browser.stop()
        await daemon.stop()
        web.process.stop()
    }
}
