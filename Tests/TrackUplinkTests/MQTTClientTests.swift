#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
import TestSupport
import TrackUplink

/// The MQTT client against a real mosquitto on loopback.
struct MQTTClientTests {
    /// A client with a last will on `test/ID/state`, connected: it waits for the broker's CONNACK.
    static func connectedClient(_ id: String, port: Int) async throws -> MQTTClient {
        var options = MQTTOptions(host: "127.0.0.1", port: port, clientID: id)
        options.willTopic = "test/\(id)/state"
        options.willPayload = "offline"
        let (events, continuation) = AsyncStream<MQTTEvent>.makeStream()
        let client = try MQTTClient(options) { continuation.yield($0) }
        try client.connect()
        for await event in events {
            switch event {
            case .connected: return client
            case .refused(_, let reason), .disconnected(_, let reason):
                throw SubprocessError("\(id) did not connect: \(reason)")
            case .acknowledged: continue
            }
        }
        throw SubprocessError("\(id) did not connect")
    }

    @Test func aCloseRightAfterAPublishSaysGoodbyeSoTheBrokerPublishesNoLastWill() async throws {
        let folder = try TemporaryFolder()
        let broker = try MosquittoBroker(folder: folder.path)
        defer { broker.stop() }
        // A stop moments after the connection and a publish (a recording played at full speed): each time, the
        // DISCONNECT goes after the message, before the socket closes.
        for round in 1...5 {
            let id = "quick-stop-\(round)"
            let client = try await Self.connectedClient(id, port: broker.port)
            _ = try client.publish(topic: "test/\(id)/state", payload: Array("offline".utf8), retain: true)
            client.close(goodbye: TestPatience.duration(.seconds(5)))
            // How the client left, as the broker saw it: a goodbye, or a socket closed without one (when the broker
            // publishes the will).
            let goodbye = await broker.saidGoodbye(id)
            #expect(goodbye != nil, "the broker saw \(id) go: \(broker.log.suffix(600))")
            #expect(goodbye == true, "round \(round): no goodbye: \(broker.log.suffix(600))")
        }
    }

    @Test func aHandshakeThatFailsAfterTheConnectionWasMadeEndsItWithTheReason() async throws {
        // A server on the TLS port that speaks no TLS: it takes the connection, and only once `connect` has
        // returned answers the car's TLS greeting with a line of HTTP. The handshake then fails on the client's
        // thread, where libmosquitto reports nothing of it.
        let listener = try LoopbackListener()
        var options = MQTTOptions(host: "127.0.0.1", port: listener.port, clientID: "tls-to-a-stranger")
        options.tls = true
        let events = Mutex<[MQTTEvent]>([])
        let client = try MQTTClient(options) { event in events.withLock { $0.append(event) } }
        defer { client.close() }
        try client.connect()
        let connection = try listener.accept()
        defer { close(connection) }
        let answer = Array("HTTP/1.0 400 Bad Request\r\n\r\n".utf8)
        #expect(write(connection, answer, answer.count) == answer.count)
        // The client's thread ends with the failure and says why, at once (before, its caller heard nothing, and
        // the uplink waited out its own connect timeout).
        let ended = await poll(upTo: 20) { !events.withLock { $0 }.isEmpty }
        let seen = events.withLock { $0 }
        #expect(ended, "no event from the client")
        guard case .disconnected(let code, let reason)? = seen.first else {
            Issue.record("a disconnection was expected first, not \(seen)")
            return
        }
        #expect(code != 0)
        #expect(reason.contains("SSL") || reason.contains("TLS"), "\(reason)")
    }
}
