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
}
