#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import TrackCore

/// Receiver failures, scripted and seeded (issue 7, item 3): trackd reads a serial receiver on a pseudo-terminal
/// (`FaultyReceiver`, a recorded drive played fast) and goes through the scenarios asked for, in order, in one run
/// and one trip: the receiver unplugged and plugged in again, garbage among the sentences, a stop in the middle of
/// a sentence, and a long spell of "no fix". Each scenario checks `status` while it runs and, after trackd's
/// orderly stop, what the log recorded of it.
final class ReceiverFaultHarness {
    /// How the harness runs.
    struct Settings: Sendable {
        var trackd: String
        var trackctl: String
        var drive: RecordedDrive
        var work: String
        var seed: UInt64
        var speed: Double
        /// Scenarios to run, in order: names from `ReceiverFaultHarness.scenarioNames`.
        var scenarios: [String]
        var unplugs: Int
        /// Wall seconds of garbage.
        var garbageSeconds: Double
        var midSentenceStops: Int
        /// GPS seconds of "no fix".
        var noFixSeconds: Double
        /// `engine.fix_loss_after`; `nil` leaves trackd's default (30 s).
        var fixLossAfter: Double?
        /// A file for a copy of every byte the receiver sent (to replay with `trackctl decode`).
        var capture: String?
    }

    static let scenarioNames = ["unplug", "garbage", "mid-sentence", "no-fix"]
    /// The engine's `max_bridge_curvature` default: a bridged outage counts at most this times its straight line.
    static let maxBridgeCurvature = EngineConfiguration().maxBridgeCurvature

    let settings: Settings
    var noise: ReceiverNoise
    /// Hears every PASS/FAIL line and every progress line as it comes.
    let output: (String) -> Void
    var scenarios: [ReceiverFaultScenario] = []
    /// The trip the run keeps, from the start on.
    var tripNumber: TripID?

    init(settings: Settings, output: @escaping (String) -> Void) {
        self.settings = settings
        self.output = output
        noise = ReceiverNoise(seed: settings.seed)
    }

    var state: String { "\(settings.work)/state" }
    var database: String { "\(state)/trackd.sqlite" }
    var link: String { "\(settings.work)/gps0" }

    /// Runs the scenarios and the stop; the report.
    func run() throws(HarnessError) -> ReceiverFaultReport {
        let started = ContinuousClock.now
        do {
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
            var yaml = ""
            if let fixLossAfter = settings.fixLossAfter { yaml += "engine:\n  fix_loss_after: \(fixLossAfter)\n" }
            try Data(yaml.utf8).write(to: URL(fileURLWithPath: "\(settings.work)/trackd.yaml"))
        } catch {
            throw .unwritable(path: settings.work, reason: "\(error)")
        }
        let receiver = try FaultyReceiver(drive: settings.drive, link: link, speed: settings.speed)
        if let capture = settings.capture {
            guard FileManager.default.createFile(atPath: capture, contents: nil),
                  let handle = FileHandle(forWritingAtPath: capture) else {
                throw .unwritable(path: capture, reason: "cannot create it")
            }
            receiver.capture = handle
        }
        let daemon = try startDaemon()
        defer { daemon.stop() }
        let probe = StatusProbe(socket: "\(state)/control.sock", pid: daemon.pid)

        var start = ReceiverFaultScenario(name: "start")
        start.firstTime = receiver.next.time.description
        var tracking: DaemonStatus?
        for _ in 0..<240 where tracking == nil {
            receiver.play(for: 0.25)
            if case .success(let status) = probe.status(), status.source.state == .connected,
               (status.trip?.distance ?? 0) > 100 {
                tracking = status
            }
        }
        tripNumber = tracking?.trip?.number
        start.status.append("tracking: \(tracking?.harnessSummary ?? "never")")
        check(&start, "start.tracking", tracking != nil,
              "trackd opened \(link) and trip \(tripNumber.map(\.description) ?? "?") counts (\(tracking.map(\.source.detail) ?? "no status"))")
        start.figures["rss_kb"] = probe.residentKilobytes().map(Double.init)
        start.lastTime = receiver.drive.epochs[max(0, receiver.cursor - 1)].time.description
        scenarios.append(start)
        guard tracking != nil else {
            return ReceiverFaultReport(seed: settings.seed, speed: settings.speed, scenarios: scenarios, exitStatus: nil,
                                       seconds: seconds(since: started))
        }

        var firstEvents: [String: Int] = [:]
        for name in settings.scenarios {
            firstEvents[name] = lastEventID() + 1
            let needed = expectedWallSeconds(of: name)
            guard receiver.hasEpochs(for: needed) else {
                throw .driveTooShort(path: settings.drive.path, needed: "\(Int(needed)) s more at \(settings.speed)×")
            }
            var scenario = ReceiverFaultScenario(name: name)
            scenario.firstTime = receiver.next.time.description
            switch name {
            case "unplug": unplug(receiver, probe, &scenario)
            case "garbage": garbage(receiver, probe, &scenario)
            case "mid-sentence": midSentence(receiver, probe, &scenario)
            case "no-fix": noFix(receiver, probe, &scenario)
            default: check(&scenario, "\(name).known", false, "unknown scenario \(name)")
            }
            scenario.lastTime = receiver.drive.epochs[max(0, receiver.cursor - 1)].time.description
            check(&scenario, "\(name).running", daemon.isRunning, "trackd is still running after \(name)")
            scenarios.append(scenario)
            guard daemon.isRunning else { break }
        }

        // The orderly stop.
        var stop = ReceiverFaultScenario(name: "stop")
        receiver.play(for: 2)
        if case .success(let status) = probe.status() { stop.status.append("before SIGTERM: \(status.harnessSummary)") }
        stop.figures["rss_kb"] = probe.residentKilobytes().map(Double.init)
        daemon.stop(grace: 30)
        check(&stop, "stop.exit", daemon.exitStatus == 0,
              "trackd exited \(daemon.exitStatus.map(String.init) ?? "?") at SIGTERM")
        scenarios.append(stop)
        checkLog(firstEvents: firstEvents, daemonOutput: daemon.output)
        return ReceiverFaultReport(seed: settings.seed, speed: settings.speed, scenarios: scenarios,
                                   exitStatus: daemon.exitStatus, seconds: seconds(since: started))
    }

    // MARK: - Pieces

    /// Records a check in `scenario` and prints it.
    func check(_ scenario: inout ReceiverFaultScenario, _ id: String, _ passed: Bool, _ text: String) {
        scenario.checks.append(.init(id: id, passed: passed, text: text))
        output("\(passed ? "PASS" : "FAIL")  \(scenario.name): \(text)")
    }

    /// The newest event's id in the log (0 for none), read as another reader of the file would.
    func lastEventID() -> Int {
        Int((try? sqlite3(database, "SELECT COALESCE(MAX(id), 0) FROM event")) ?? "") ?? 0
    }

    private func startDaemon() throws(HarnessError) -> TestSubprocess {
        try DaemonLauncher.start(
            settings.trackd,
            arguments: ["--source", "serial://\(link)?baud=9600", "--state-dir", state,
                        "--config", "\(settings.work)/trackd.yaml", "--auto-start", "business", "--log-level", "info"],
            outputPath: "\(settings.work)/trackd.log", socket: "\(state)/control.sock")
    }

    /// About how long a scenario plays on average, wall seconds (the drive must last that long).
    func expectedWallSeconds(of name: String) -> Double {
        switch name {
        case "unplug": Double(settings.unplugs) * 11 + 2
        case "garbage": settings.garbageSeconds + 3
        case "mid-sentence": Double(settings.midSentenceStops) * 8.5 + 2
        default: settings.noFixSeconds / settings.speed + 8
        }
    }

    func seconds(since instant: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - instant
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
