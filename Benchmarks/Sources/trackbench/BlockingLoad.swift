import Foundation
import Synchronization

/// Many `BlockingClient`s at once, each on its own thread, asking until the deadline: `status`, or in turn the
/// methods given (read requests without parameters).
enum BlockingLoad {
    static func run(socket: String, clients: Int, until deadline: ContinuousClock.Instant, pause: Duration,
                    methods: [String] = ["status"]) -> LoadTally {
        let total = Mutex(LoadTally())
        let done = DispatchGroup()
        for index in 0..<clients {
            done.enter()
            Thread {
                defer { done.leave() }
                var tally = LoadTally()
                do {
                    let client = try BlockingClient(path: socket)
                    _ = try client.exchange(#"{"jsonrpc":"2.0","id":0,"method":"hello","params":{"client":"trackbench \#(index)","protocol":1}}"# + "\n")
                    var id = 1
                    // Polling clients start spread over one interval, as independent dashboards would be.
                    if pause > .zero { Thread.sleep(forTimeInterval: seconds(pause) * Double(index) / Double(clients)) }
                    while ContinuousClock.now < deadline {
                        let method = methods[(index + id) % methods.count]
                        let sent = ContinuousClock.now
                        tally.sent += 1
                        let answer = try client.exchange(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"}"# + "\n")
                        let elapsed = ContinuousClock.now - sent
                        if answer.starts(with: Array(#"{"id":\#(id),"jsonrpc":"2.0","result":"#.utf8)) {
                            tally.answered += 1
                            tally.latencies.append(elapsed)
                        } else {
                            tally.note("\(method): \(String(decoding: answer.prefix(160), as: UTF8.self))")
                        }
                        id += 1
                        if pause > .zero { Thread.sleep(forTimeInterval: seconds(pause)) }
                    }
                } catch {
                    tally.note("client \(index): \(error)")
                }
                total.withLock { $0.add(tally) }
            }.start()
        }
        done.wait()
        var result = total.withLock { $0 }
        result.latencies.sort()
        return result
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
