import Foundation
import TrackCore

/// Asks trackd for `status` on a connection of its own each time (blocking), and reads its resident memory from
/// /proc.
struct StatusProbe {
    let socket: String
    let pid: Int32

    /// The answer to `status`, or why there was none.
    func status() -> Result<DaemonStatus, BenchError> {
        do {
            let client = try BlockingClient(path: socket)
            _ = try client.exchange(#"{"jsonrpc":"2.0","id":0,"method":"hello","params":{"client":"trackbench receiver-faults","protocol":1}}"# + "\n")
            let answer = try client.exchange(#"{"jsonrpc":"2.0","id":1,"method":"status"}"# + "\n")
            return .success(try JSONDecoder().decode(Answer.self, from: Data(answer)).result)
        } catch let error as BenchError {
            return .failure(error)
        } catch {
            return .failure(BenchError("status: \(error)"))
        }
    }

    /// Polls `status` every 20 ms until `condition` holds, up to `seconds`; the last status seen, and whether it held.
    func wait(upTo seconds: Double, until condition: (DaemonStatus) -> Bool) -> (status: DaemonStatus?, held: Bool) {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        var last: DaemonStatus?
        repeat {
            if case .success(let status) = status() {
                last = status
                if condition(status) { return (status, true) }
            }
            usleep(20_000)
        } while ContinuousClock.now < deadline
        return (last, false)
    }

    /// trackd's resident set size now (`VmRSS`), kilobytes; `nil` once it has exited.
    func residentKilobytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    private struct Answer: Decodable {
        var result: DaemonStatus
    }
}

extension DaemonStatus {
    /// What the harness prints of a status: the source, the counters, the trip and the last fix.
    var harnessSummary: String {
        var parts = ["source \(source.state) (\(source.detail))", "epochs \(epochs)", "position_fixes \(positionFixes)",
                     "input_problems \(inputProblems)"]
        if let trip {
            parts.append("trip \(trip.number) \(String(format: "%.0f", trip.distance)) m, \(trip.idleAlerts) idle alerts")
        } else {
            parts.append("no trip")
        }
        parts.append("motion \(motion?.state.rawValue ?? "?")")
        parts.append("last fix \(lastFix.map { "\($0.mode)" } ?? "none")")
        if let age = lastPositionAge { parts.append(String(format: "last position %.1f s ago", age)) }
        return parts.joined(separator: ", ")
    }
}
