import ArgumentParser
import ControlSocket
import Foundation
import TrackCore

/// `trackbench status`: load for trackd's control socket, for benchmarks (not tests): many clients asking `status`
/// at once, with the round-trip time of every request.
struct StatusBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Measure trackd's status round trip with many clients at once (a benchmark, not a test).")

    @Option(help: "trackd's control socket.")
    var socket: String

    @Option(help: "Clients asking at the same time, each on its own connection.")
    var clients = 50

    @Option(help: "How long to ask, seconds.")
    var seconds = 20.0

    @Option(help: "Each client waits this long between an answer and its next request, milliseconds (0: at once).")
    var interval = 0.0

    @Flag(help: "Clients on plain blocking sockets, a thread each (measures trackd alone), instead of trackctl's client.")
    var blocking = false

    func run() async throws {
        let socket = socket
        let pause = Duration.microseconds(Int64(interval * 1000))
        let duration = Duration.milliseconds(Int64(seconds * 1000))
        let started = ContinuousClock.now
        let deadline = started + duration
        let tally = blocking
            ? BlockingLoad.run(socket: socket, clients: clients, until: deadline, pause: pause)
            : await ClientLoad.run(socket: socket, clients: clients, until: deadline, pause: pause)
        if tally.errors > 0 { throw BenchError(tally.messages.joined(separator: "; ")) }
        let latencies = tally.latencies
        let elapsed = ContinuousClock.now - started
        func milliseconds(_ value: Duration) -> Double {
            Double(value.components.seconds) * 1000 + Double(value.components.attoseconds) / 1e15
        }
        func percentile(_ p: Double) -> Double {
            guard !latencies.isEmpty else { return .nan }
            return milliseconds(latencies[min(latencies.count - 1, Int((p / 100 * Double(latencies.count)).rounded(.up)) - 1)])
        }
        let summary: [String: Double] = [
            "clients": Double(clients), "interval_ms": interval, "blocking_clients": blocking ? 1 : 0, "requests": Double(latencies.count), "seconds": milliseconds(elapsed) / 1000,
            "requests_per_s": Double(latencies.count) / (milliseconds(elapsed) / 1000),
            "p50_ms": percentile(50), "p90_ms": percentile(90), "p99_ms": percentile(99),
            "max_ms": latencies.last.map(milliseconds) ?? .nan,
        ]
        let data = try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }
}
