import Foundation
import Synchronization

/// Many `BlockingClient`s at once, each on its own thread, asking `status` until the deadline.
enum BlockingLoad {
    static func run(socket: String, clients: Int, until deadline: ContinuousClock.Instant, pause: Duration) throws -> [Duration] {
        let results = Mutex<[Duration]>([])
        let failure = Mutex<String?>(nil)
        let done = DispatchGroup()
        for index in 0..<clients {
            done.enter()
            Thread {
                defer { done.leave() }
                do {
                    let client = try BlockingClient(path: socket)
                    _ = try client.exchange(#"{"jsonrpc":"2.0","id":0,"method":"hello","params":{"client":"trackbench \#(index)","protocol":1}}"# + "\n")
                    var measured: [Duration] = []
                    var id = 1
                    // Polling clients start spread over one interval, as independent dashboards would be.
                    if pause > .zero { Thread.sleep(forTimeInterval: seconds(pause) * Double(index) / Double(clients)) }
                    while ContinuousClock.now < deadline {
                        let sent = ContinuousClock.now
                        let answer = try client.exchange(#"{"jsonrpc":"2.0","id":\#(id),"method":"status"}"# + "\n")
                        measured.append(ContinuousClock.now - sent)
                        guard answer.starts(with: Array(#"{"id":\#(id),"jsonrpc":"2.0","result":"#.utf8)) else {
                            throw BenchError("unexpected answer: \(String(decoding: answer.prefix(120), as: UTF8.self))")
                        }
                        id += 1
                        if pause > .zero { Thread.sleep(forTimeInterval: seconds(pause)) }
                    }
                    results.withLock { $0 += measured }
                } catch {
                    failure.withLock { $0 = "\(error)" }
                }
            }.start()
        }
        done.wait()
        if let message = failure.withLock({ $0 }) { throw BenchError(message) }
        return results.withLock { $0 }.sorted()
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
