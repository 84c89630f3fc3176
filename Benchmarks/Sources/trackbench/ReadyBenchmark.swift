import ArgumentParser
import Foundation
import TestSupport

/// `trackbench ready`: how long trackd takes from its start to telling systemd `READY=1`, on a new log and on a log
/// that already holds trips.
struct ReadyBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ready",
        abstract: "Time from starting trackd to READY=1 on its notify socket.",
        discussion: """
            Starts trackd RUNS times as systemd would (NOTIFY_SOCKET set) with a file source, measuring from just \
            before the process is spawned to the arrival of READY=1 (stamped by the listener's thread on the \
            monotonic clock), then stops it with SIGTERM. The first start creates the log; the others open it \
            with the trips the earlier starts left. gpsd is not involved (the source is a file), so \
            the figure is trackd's own start: loading the binary, the configuration, opening and migrating the \
            log, binding the control socket. The goal (issue 7) is 150 ms.
            """)

    @Option(help: "Starts to time.")
    var runs = 20

    @Option(help: "An NMEA file for the source (played at its pace; READY does not wait for a fix).")
    var drive = "demo/drive.nmea"

    @Option(help: "trackd to run. Default: beside trackbench, else the root package's build (.build/release for a release trackbench).")
    var trackd: String?

    @Option(help: "Folder for trackd's state and the notify socket. Default: a new temporary folder.")
    var work: String?

    func run() async throws {
        let work = work ?? "\(NSTemporaryDirectory())/trackbench-ready-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: "\(work)/state", withIntermediateDirectories: true)
        let source = "file://\(URL(fileURLWithPath: drive).standardizedFileURL.path)?speed=1"
        var first: Duration?
        var later: [Duration] = []
        for run in 0..<runs {
            let listener = try NotifyListener(path: "\(work)/notify-\(run).sock")
            defer { listener.stop() }
            let spawned = ContinuousClock.now
            let daemon = try TestSubprocess(
                executable: trackd ?? ProductPaths.program("trackd"),
                arguments: ["--source", source, "--state-dir", "\(work)/state", "--auto-start", "business",
                            "--log-level", "warning"],
                environment: ["NOTIFY_SOCKET": listener.path],
                outputPath: "\(work)/trackd-\(run).log")
            defer { daemon.stop() }
            let arrived = try await offload { () -> ContinuousClock.Instant? in
                _ = waitUntil(upTo: 30) { listener.lastArrival(of: "READY=1") != nil || !daemon.isRunning }
                return listener.lastArrival(of: "READY=1")
            }
            guard let arrived else { throw HarnessError.daemonDidNotStart(round: run, output: daemon.output) }
            let took = arrived - spawned
            if run == 0 { first = took } else { later.append(took) }
            let status = try await offload { daemon.stop(grace: 30); return daemon.exitStatus }
            guard status == 0 else { throw HarnessError.daemonExitedEarly(round: run, status: status, output: daemon.output) }
        }
        print(ReadyBenchmark.report(first: first, later: later, work: work))
    }

    /// The summary: the first start, then the spread of the later ones, milliseconds.
    static func report(first: Duration?, later: [Duration], work: String) -> String {
        func ms(_ duration: Duration) -> String {
            String(format: "%.1f", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
        }
        var lines = ["trackbench ready: start to READY=1 (ms, monotonic clock, process spawn included)"]
        if let first { lines.append("  new log (created):   \(ms(first))") }
        let sorted = later.sorted()
        if !sorted.isEmpty {
            let median = sorted[sorted.count / 2]
            let p90 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.9).rounded(.up)) - 1)]
            lines.append("  existing log, \(sorted.count) starts: min \(ms(sorted.first!))  median \(ms(median))  "
                         + "p90 \(ms(p90))  max \(ms(sorted.last!))")
        }
        lines.append("  work folder: \(work)")
        return lines.joined(separator: "\n")
    }
}
