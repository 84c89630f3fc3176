import ControlSocket
import TrackCore

/// Many clients on trackctl's own connection code (SwiftNIO) at once, asking until the deadline: `status`, or in
/// turn the methods given (read requests without parameters). Its JSON decoding and event-loop hops count too.
enum ClientLoad {
    static func run(socket: String, clients: Int, until deadline: ContinuousClock.Instant, pause: Duration,
                    methods: [ControlMethod] = [.status]) async -> LoadTally {
        var total = await withTaskGroup(of: LoadTally.self) { group in
            for index in 0..<clients {
                group.addTask {
                    var tally = LoadTally()
                    do {
                        try await ControlClient.withConnection(socketPath: socket, client: "trackbench \(index)") { connection in
                            var turn = 0
                            // Polling clients start spread over one interval, as independent dashboards would be.
                            if pause > .zero { try await Task.sleep(for: pause * Double(index) / Double(clients)) }
                            while ContinuousClock.now < deadline {
                                let method = methods[(index + turn) % methods.count]
                                turn += 1
                                let sent = ContinuousClock.now
                                tally.sent += 1
                                do {
                                    if method == .status {
                                        _ = try await connection.call(method, params: NoParams(), result: DaemonStatus.self)
                                    } else {
                                        _ = try await connection.call(method, params: NoParams(), result: AnyResult.self)
                                    }
                                    tally.latencies.append(ContinuousClock.now - sent)
                                    tally.answered += 1
                                } catch ControlSocketError.remote(let error) {
                                    tally.note("\(method.rawValue): \(error)")
                                }
                                if pause > .zero { try await Task.sleep(for: pause) }
                            }
                        }
                    } catch {
                        tally.note("client \(index): \(error)")
                    }
                    return tally
                }
            }
            return await group.reduce(into: LoadTally()) { $0.add($1) }
        }
        total.latencies.sort()
        return total
    }
}
