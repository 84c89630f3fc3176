import Foundation
import TestSupport
import Testing

/// The uplink's kill harness (`trackbench uplink-kills`) run short, with the root package's trackd and trackctl.
struct UplinkKillHarnessTests {
    /// Five seeded SIGKILLs while a real mosquitto goes down and comes back (`scripts/fault-uplink` runs 20), then an
    /// orderly stop once the backlog drained: every point of the log and every trip's start and end arrived.
    @Test func fiveKillsWhileTheBrokerComesAndGoesLoseNoMessage() async throws {
        let folder = try TemporaryFolder()
        let report = folder.file("report.json")
        let run = try await run(Products.trackbench, [
            "uplink-kills", "--seed", "2", "--kills", "5", "--drive", DriveLog.demo, "--speed", "10", "--max-life", "4",
            "--work", folder.file("work"), "--report", report, "--trackd", Products.trackd, "--trackctl", Products.trackctl,
        ])
        let summary = try #require(try? json(String(contentsOfFile: report, encoding: .utf8)) as? [String: Any],
                                   "no report: \(run.output)\(run.error)")
        #expect(summary["kills"] as? Int == 5)
        #expect((summary["pointsInLog"] as? Int ?? 0) > 50, "\(summary)")
        #expect(summary["missingPoints"] as? Int == 0, "\(summary)")
        #expect(summary["missingTripMessages"] as? Int == 0, "\(summary)")
        #expect(run.status == 0, "\(run.output)\(run.error)")
    }
}
