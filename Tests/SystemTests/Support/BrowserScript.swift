import Foundation
import Testing
import TestSupport

/// One of Tests/Browser's scripts (Debian's Chromium through Selenium) run against a trackd and its trackd-web: its
/// screenshots and figures in `TRACKD_WEB_SHOTS`, else the test's folder; stopped when the test lets go of it.
final class BrowserScript {
    let process: TestSubprocess
    /// Where its screenshots and figures.json go.
    let out: String
    private let web: TrackdWeb

    /// Starts `Tests/Browser/NAME.py` with the page's address, trackctl, trackd's socket, trackd-web's admin socket
    /// and `extra` arguments.
    init(_ name: String, web: TrackdWeb, controlSocket: String, folder: TemporaryFolder, extra: [String] = []) throws {
        self.web = web
        out = ProcessInfo.processInfo.environment["TRACKD_WEB_SHOTS"] ?? folder.file("browser")
        process = try TestSubprocess(
            executable: "/usr/bin/python3",
            arguments: ["\(Products.root)/Tests/Browser/\(name).py", "--url", web.origin, "--trackctl", Products.trackctl,
                        "--socket", controlSocket, "--admin-socket", web.adminSocket] + extra + ["--out", out],
            outputPath: folder.file("browser-\(name).log"))
    }

    deinit {
        process.stop()
    }

    /// What it printed so far (its steps, and a failure's reason).
    var output: String { process.output }
    var isRunning: Bool { process.isRunning }

    /// Waits for its end: it passed (exit 0) after `steps` steps; its figures.
    @discardableResult
    func finish(steps: Int, patience seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any]? {
        #expect(await poll(upTo: TestPatience.seconds(seconds)) { !self.process.isRunning }, sourceLocation: sourceLocation)
        #expect(process.exitStatus == 0, "\(process.output)\ntrackd-web: \(web.process.output.suffix(3000))",
                sourceLocation: sourceLocation)
        let figures = try json(String(contentsOfFile: "\(out)/figures.json", encoding: .utf8)) as? [String: Any]
        #expect((figures?["steps"] as? [String])?.count == steps, "\(figures ?? [:])", sourceLocation: sourceLocation)
        return figures
    }
}
