import Foundation
import TestSupport
import Testing

/// `trackctl add` as a driver types it: the trip it prints is the row `trackctl trips` shows for it.
struct ManualTripTests {
    @Test func addPrintsTheTimesItWasGivenAsTripsShowsThem() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=10")
        let socket = ["--socket", daemon.socket]
        let added = try await trackctl(socket + ["add", "--date", "2026-11-20", "--distance", "42.5", "--business",
                                                 "--purpose", "Site visit", "--start", "08:15", "--end", "09:05"])
        #expect(added.status == 0, "\(added.error)")
        let listed = try await trackctl(socket + ["trips", "--all"])
        #expect(listed.status == 0, "\(listed.error)")
        // Before, add printed the row without its times (no calendar), though the trip had them.
        for output in [added.output, listed.output] {
            let row = output.split(separator: "\n").first { $0.contains("Site visit") }
            #expect(row?.contains("2026-11-20  08:15–09:05") == true, "\(output)")
        }
    }

    @Test func textFromTheLogCannotDriveTheTerminalTrackctlPrintsTo() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=10")
        let socket = ["--socket", daemon.socket]
        // A purpose as a page's form could send it: retitle the terminal, clear it, return to the line's start.
        let purpose = "Visit\u{1B}]0;owned\u{07}\u{1B}[2J\rpaid"
        let added = try await trackctl(socket + ["add", "--date", "2026-11-20", "--distance", "4.2", "--business",
                                                 "--purpose", purpose])
        #expect(added.status == 0, "\(added.error)")
        for arguments in [["show", "1"], ["trips", "--month", "2026-11"]] {
            let shown = try await trackctl(socket + arguments)
            #expect(shown.status == 0, "\(arguments): \(shown.error)")
            #expect(!shown.output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x0D },
                    "\(arguments): \(shown.output.debugDescription)")
            #expect(shown.output.contains("Visit␛]0;owned␇␛[2J␍paid"), "\(arguments): \(shown.output)")
        }
        // The log keeps what was typed; a program reads it as JSON, escaped.
        let json = try await trackctl(socket + ["--json", "show", "1"])
        #expect(json.output.contains("Visit\\u001b]0;owned\\u0007\\u001b[2J\\rpaid"), "\(json.output)")
        await daemon.stop()
    }
}
