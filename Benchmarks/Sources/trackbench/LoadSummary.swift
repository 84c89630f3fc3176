import Foundation
import TrackCore

/// What a load run comes to: requests and their latency, the watchdog's pings, what each watcher got, PASS or FAIL.
struct LoadSummary {
    var lines: [String] = []
    var failures: [String] = []

    var passed: Bool { failures.isEmpty }

    init(clients: Int, watchers: Int, speed: Double, blocking: Bool, interval: Double, watchdog: Double,
         elapsed: Duration, tally: LoadTally, pings: [ContinuousClock.Instant], started: ContinuousClock.Instant,
         followers: [FixWatcher.Seen], drive: RecordedDrive, epochs: Int?, runningAtEnd: Bool, exitStatus: Int32?,
         stuck: Bool, work: String) {
        let seconds = LoadSummary.seconds(elapsed)
        let pace = interval > 0 ? "\(String(format: "%g", interval)) ms between requests" : "as fast as answered"
        lines.append("load: \(clients) clients (\(blocking ? "blocking sockets" : "trackctl's client"), \(pace)) and "
                     + "\(watchers) watchers for \(String(format: "%.1f", seconds)) s; \(drive.path) at \(String(format: "%g", speed))×, "
                     + "a trip running; WATCHDOG_USEC \(String(format: "%g", watchdog)) s")

        // Requests.
        func ms(_ p: Double) -> String {
            guard !tally.latencies.isEmpty else { return "-" }
            let index = min(tally.latencies.count - 1, max(0, Int((p / 100 * Double(tally.latencies.count)).rounded(.up)) - 1))
            return String(format: "%.2f", LoadSummary.seconds(tally.latencies[index]) * 1000)
        }
        lines.append("  requests: \(tally.sent) sent, \(tally.answered) answered, \(tally.errors) errors; "
                     + String(format: "%.0f", Double(tally.answered) / seconds) + " per second")
        lines.append("  latency ms: p50 \(ms(50)), p90 \(ms(90)), p99 \(ms(99)), p99.9 \(ms(99.9)), max \(ms(100))")
        if tally.sent != tally.answered || tally.errors > 0 {
            failures.append("\(tally.sent - tally.answered) of \(tally.sent) requests unanswered, \(tally.errors) errors: "
                            + tally.messages.prefix(3).joined(separator: "; "))
        }

        // The watchdog.
        var gaps: [Double] = []
        var previous = started
        for ping in pings {
            gaps.append(LoadSummary.seconds(ping - previous))
            previous = ping
        }
        let longest = gaps.max() ?? .infinity
        lines.append("  watchdog: \(pings.count) WATCHDOG=1 during the run, longest gap "
                     + String(format: "%.2f", longest) + " s (limit \(String(format: "%g", watchdog)) s; trackd pings every "
                     + String(format: "%g", min(watchdog / 2, 2)) + " s)" + (stuck ? "; trackd logged a stuck engine" : ""))
        if longest > watchdog { failures.append("the watchdog would have fired: \(String(format: "%.2f", longest)) s without WATCHDOG=1") }
        if stuck { failures.append("trackd logged that the engine had not handled an input for a while") }

        // The watchers.
        var missingTotal = 0, droppedTotal = 0, fixesTotal = 0
        var longestWait = Duration.zero
        for (index, seen) in followers.enumerated() {
            fixesTotal += seen.fixes
            droppedTotal += seen.dropped
            longestWait = max(longestWait, seen.longestWait)
            let times = seen.fixTimes
            var missing = 0
            var disorder = 0
            if let first = times.first, let last = times.last, let from = drive.firstIndex(after: first.adding(seconds: -0.001)) {
                let to = drive.firstIndex(after: last) ?? drive.epochs.count
                let received = Set(times)
                missing = drive.epochs[from..<to].filter { !received.contains($0.time) }.count
                disorder = zip(times, times.dropFirst()).filter { $0.0 >= $0.1 }.count
            }
            missingTotal += missing
            if seen.fixes == 0 || missing > 0 || seen.dropped > 0 || disorder > 0 || seen.failure != nil {
                failures.append("watcher \(index): \(seen.fixes) fixes, \(missing) missing, \(seen.dropped) dropped (lagged), "
                                + "\(disorder) out of order" + (seen.failure.map { ", ended with \($0)" } ?? ""))
            }
        }
        lines.append("  watchers: \(fixesTotal) fixes received in all, \(missingTotal) missing, \(droppedTotal) dropped (lagged); "
                     + "longest wait between two fixes " + String(format: "%.3f", LoadSummary.seconds(longestWait)) + " s")
        lines.append("  trackd: \(epochs.map(String.init) ?? "?") epochs handled, "
                     + (runningAtEnd ? "running at the end" : "NOT running at the end")
                     + ", exit status \(exitStatus.map(String.init) ?? "?") at SIGTERM")
        if !runningAtEnd { failures.append("trackd ended before the run did (a drive too short?)") }
        if exitStatus != 0 { failures.append("trackd exited with status \(exitStatus.map(String.init) ?? "?") at SIGTERM") }
        lines.append("  state and trackd's log: \(work)")
        for failure in failures { lines.append("  FAILED: \(failure)") }
        lines.append(passed ? "PASS" : "FAIL")
    }

    var text: String { lines.joined(separator: "\n") }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
