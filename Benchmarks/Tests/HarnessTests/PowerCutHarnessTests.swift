import Foundation
import TestSupport
import Testing

/// The power-cut harness (`trackbench power-cuts`) run short, with the root package's trackd and trackctl.
struct PowerCutHarnessTests {
    /// The power-cut harness's short version (`scripts/fault-power-cuts` runs 200 kills): ten seeded kills at random
    /// instants of a drive played at 10×, each followed by a restart where the drive has got to, then an orderly
    /// stop. `resume_within: 30` makes both documented outcomes cheap in drive time. The harness checks each copy of
    /// the files; this asserts on its report (not on the loss, which depends on the machine's pace).
    @Test func tenSeededKillsLoseNoTripDuplicateNoneAndLeaveTheTripsAsDocumented() async throws {
        let folder = try TemporaryFolder()
        let report = folder.file("report.json")
        let run = try await trackbenchRun(["power-cuts", "--seed", "3", "--rounds", "10", "--drive", DriveLog.demo,
                                           "--speed", "10", "--commit-interval", "1", "--resume-within", "30",
                                           "--max-life", "3", "--work", folder.file("work"), "--report", report])
        let parsed = try? json(String(contentsOfFile: report, encoding: .utf8)) as? [String: Any]
        let summary = try #require(parsed?["summary"] as? [String: Any], "no report: \(run.output)\(run.error)")
        let rounds = try #require(parsed?["rounds"] as? [[String: Any]])
        #expect(rounds.count == 11, "ten kills and the orderly stop: \(run.output)")
        for round in rounds {
            #expect((round["violations"] as? [String])?.isEmpty == true, "round \(round["round"] ?? "?"): \(round)")
        }
        #expect(summary["integrityOK"] as? Int == 11, "integrity_check ok after every round")
        let outcomes = summary["outcomes"] as? [String: Int] ?? [:]
        #expect((outcomes["resumed"] ?? 0) >= 1 && (outcomes["closed"] ?? 0) >= 1, "both documented outcomes: \(outcomes)")
        #expect(rounds.last?["openTrip"] == nil, "every trip closed after the orderly stop")
    }

    /// Runs trackbench with `arguments`, trackd and trackctl of this build.
    private func trackbenchRun(_ arguments: [String]) async throws -> CommandResult {
        try await run(Products.trackbench, arguments + ["--trackd", Products.trackd, "--trackctl", Products.trackctl])
    }
}
