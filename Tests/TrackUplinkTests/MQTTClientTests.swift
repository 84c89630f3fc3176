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
}
