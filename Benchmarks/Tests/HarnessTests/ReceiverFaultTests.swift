import Foundation
import TestSupport
import Testing

/// trackd on a serial receiver that fails: a real pseudo-terminal behind a symbolic link (as udev's link to the
/// device), into which the receiver-fault harness plays the demo drive at 20× and unplugs it, sends garbage, stops
/// in the middle of a sentence, or reports no fix. The short, seeded version of `scripts/fault-receiver`: each test
/// runs `trackbench receiver-faults` on one scenario with this build's trackd and asserts on its report. The
/// harness waits on conditions (status polled, generous deadlines), and ends every run with SIGTERM.
struct ReceiverFaultTests {
    @Test func keepsTheTripAcrossAnUnpluggedAndRepluggedReceiver() async throws {
        let report = try await runHarness(["--scenarios", "unplug", "--unplugs", "2"])
        let unplug = try #require(report.scenario("unplug"), "\(report.text)")
        // Not `unplug.reconnect-time`: a timing goal, the long harness's business.
        expectPassed(unplug, ["unplug.lost", "unplug.detail", "unplug.reconnected", "unplug.same-trip", "unplug.logged",
                              "unplug.outages", "unplug.events-trip", "unplug.running"])
        #expect(unplug.status.contains { $0.hasPrefix("while unplugged: source lost (device ") && $0.contains("unplugged") },
                "\(unplug.status)")
        #expect(unplug.status.contains { $0.hasPrefix("plugged in again: source connected (") }, "\(unplug.status)")
        expectStoppedCleanly(report)
    }

    @Test func countsGarbageAsInputProblemsWithoutLosingFixesOrAddingDistance() async throws {
        let report = try await runHarness(["--scenarios", "garbage", "--garbage-seconds", "4"])
        let garbage = try #require(report.scenario("garbage"), "\(report.text)")
        expectPassed(garbage, ["garbage.problems", "garbage.fixes", "garbage.distance", "garbage.connected", "garbage.logged",
                               "garbage.events-trip", "garbage.running"])
        #expect(garbage.figures["input_problems"] ?? 0 > 0, "\(garbage.figures)")
        #expect(garbage.figures["driven_m"] ?? 0 > 100, "the car drove during the garbage: \(garbage.figures)")
        expectStoppedCleanly(report)
    }

    @Test func dropsTheHalfSentenceAndReadsOnWhenTheReceiverResumes() async throws {
        let report = try await runHarness(["--scenarios", "mid-sentence", "--mid-sentence-stops", "2"])
        let stop = try #require(report.scenario("mid-sentence"), "\(report.text)")
        expectPassed(stop, ["mid-sentence.dropped", "mid-sentence.resumed", "mid-sentence.logged",
                            "mid-sentence.outages", "mid-sentence.events-trip", "mid-sentence.running"])
        expectStoppedCleanly(report)
    }

    @Test func recordsNoDistanceNorPositionThroughASpellWithoutFixAndTracksWhenFixesReturn() async throws {
        // 300 s of GPS time without a fix at 30×; fix_loss_after 3 s, because the engine times a loss of fix on
        // the monotonic clock, which fast play does not speed up.
        let report = try await runHarness(["--scenarios", "no-fix", "--no-fix-seconds", "300", "--speed", "30",
                                           "--fix-loss-after", "3"])
        let spell = try #require(report.scenario("no-fix"), "\(report.text)")
        expectPassed(spell, ["no-fix.no-distance", "no-fix.no-position", "no-fix.epochs", "no-fix.memory", "no-fix.trip",
                             "no-fix.resumed", "no-fix.logged", "no-fix.outages", "no-fix.events-trip", "no-fix.running"])
        #expect(spell.status.contains { $0.contains("last fix no fix") && $0.contains("waiting for GPS") }, "\(spell.status)")
        expectStoppedCleanly(report)
    }

    // MARK: - Helpers

    /// The parts of the harness's JSON report the tests look at.
    private struct Report: Decodable {
        struct Check: Decodable {
            var id: String
            var passed: Bool
            var text: String
        }

        struct Scenario: Decodable {
            var name: String
            var checks: [Check]
            var figures: [String: Double]
            var status: [String]
        }

        var scenarios: [Scenario]
        var exitStatus: Int32?
        /// What the harness printed.
        var text = ""

        enum CodingKeys: String, CodingKey {
            case scenarios, exitStatus
        }

        func scenario(_ name: String) -> Scenario? {
            scenarios.first { $0.name == name }
        }
    }

    /// Runs the harness (seed 7, the demo drive at 20× unless `arguments` say otherwise) with this build's trackd.
    private func runHarness(_ arguments: [String]) async throws -> Report {
        let folder = try TemporaryFolder()
        let path = folder.file("report.json")
        let result = try await run(Products.trackbench,
                                ["receiver-faults", "--seed", "7", "--drive", DriveLog.demo, "--work", folder.file("work"),
                                 "--report", path, "--trackd", Products.trackd, "--trackctl", Products.trackctl]
                                    + (arguments.contains("--speed") ? [] : ["--speed", "20"]) + arguments)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SubprocessError("no report (status \(result.status)): \(result.output)\(result.error)")
        }
        var report = try JSONDecoder().decode(Report.self, from: data)
        report.text = result.output + result.error
        return report
    }

    /// Every check named in `ids` was made and passed.
    private func expectPassed(_ scenario: Report.Scenario, _ ids: [String]) {
        for id in ids {
            let check = scenario.checks.first { $0.id == id }
            #expect(check?.passed == true, "\(id): \(check?.text ?? "not made"); status: \(scenario.status)")
        }
    }

    /// trackd exited 0 at SIGTERM, leaving one closed trip that `trackctl verify` accepts, and logged the source
    /// lost only for unplugs.
    private func expectStoppedCleanly(_ report: Report) {
        #expect(report.exitStatus == 0, "\(report.text)")
        if let stop = report.scenario("stop") {
            expectPassed(stop, ["stop.exit", "stop.trip", "stop.verify", "stop.source-lost"])
        } else {
            Issue.record("the harness did not stop trackd: \(report.text)")
        }
    }
}
