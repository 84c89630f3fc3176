import Foundation
import TestSupport
import Testing

/// The state folder belongs to one trackd: a second one on it (a `sudo trackd` by hand beside the service, each with
/// a socket of its own) is refused before it opens the log, and the first one's trip and log are untouched.
struct StateFolderTests {
    @Test func aSecondTrackdOnTheSameFolderIsRefusedAndNamesTheFirst() async throws {
        let folder = try TemporaryFolder()
        // The drive at five times its pace, then parked: the first trackd runs on, driving, while the test starts
        // the second, however busy the machine.
        let drive = folder.file("drive.nmea")
        try FileManager.default.copyItem(atPath: DriveLog.demo, toPath: drive)
        try DriveLog.appendParking(to: drive, seconds: 1800)
        let first = try await Trackd.start(state: folder.path, source: "file://\(drive)?speed=5", autoStart: "business")
        let driving = await poll(upTo: 60) {
            (await first.status()?["trip"] as? [String: Any])?["distance_m"] as? Double ?? 0 > 100
        }
        #expect(driving, "\(first.process.output)")

        let second = try await run(Products.trackd, [
            "--source", "file://\(DriveLog.demo)?speed=20", "--state-dir", folder.path, "--socket", folder.file("other.sock"),
            "--config", folder.file("trackd.yaml"), "--auto-start", "business",
        ])
        #expect(second.status == 1)
        #expect(second.error.contains("another trackd (pid \(first.process.pid)) is running on the state folder \(folder.path)"),
                "\(second.error)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("other.sock")), "the second one serves nothing")

        // The first one carries on with its trip, which nobody else touched.
        let before = (await first.status()?["trip"] as? [String: Any])?["distance_m"] as? Double ?? 0
        #expect(await poll(upTo: 60) {
            (await first.status()?["trip"] as? [String: Any])?["distance_m"] as? Double ?? 0 > before + 50
        })
        await first.stop()
        #expect(first.process.exitStatus == 0, "\(first.process.output)")
        let trips = try json(await trackctl(["--db", first.database, "--json", "trips", "--all"]).output) as? [[String: Any]]
        #expect(trips?.count == 1)
        #expect(trips?.first?["end_reason"] as? String == "shutdown", "not closed as power-lost by the second one")
        let verify = try await trackctl(["--db", first.database, "verify"])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)")
    }
}
