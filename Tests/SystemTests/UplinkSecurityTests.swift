import Foundation
import TestSupport
import Testing
import TrackCore

/// The uplink over TLS with a password, against a real mosquitto: accepted, and refused for a wrong password or a
/// broker whose certificate the car does not trust, each with a reason in `status` and the journal.
@Suite(.serialized)
struct UplinkSecurityTests {
    static let device = "secure-car"

    /// A broker with TLS from `authority` and the car's user, its subscriber on the plain listener.
    static func broker(in folder: TemporaryFolder, authority: TestCertificateAuthority) throws -> MosquittoBroker {
        try MosquittoBroker(folder: folder.path, tls: (authority.certificate, authority.serverCertificate, authority.serverKey),
                            users: [device: "right horse battery", "reader": "reader-secret"])
    }

    /// trackd on a drive that ends parked (it keeps running), with the uplink to `broker` over TLS.
    static func start(in folder: TemporaryFolder, broker: MosquittoBroker, caFile: String,
                      password: String) async throws -> Trackd {
        let passwordFile = folder.file("mqtt-password")
        try Data("\(password)\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        chmod(passwordFile, 0o600)
        let drive = folder.file("drive.nmea")
        try FileManager.default.copyItem(atPath: DriveLog.demo, toPath: drive)
        try DriveLog.appendParking(to: drive, seconds: 3600)
        return try await Trackd.start(state: folder.path, source: "file://\(drive)?speed=20", autoStart: "business",
                                      configuration: """
                                          uplink:
                                            mqtt: mqtts://localhost:\(broker.port)
                                            device: \(device)
                                            ca_file: \(caFile)
                                            username: \(device)
                                            password_file: \(passwordFile)
                                            reconnect_max: 2
                                          """)
    }

    static func uplink(_ daemon: Trackd) async -> [String: Any]? {
        await daemon.status()?["uplink"] as? [String: Any]
    }

    @Test func aBrokerWithTheCarsCAAndPasswordTakesItsMessagesOverTLS() async throws {
        let folder = try TemporaryFolder()
        let brokerFolder = try TemporaryFolder()
        let authority = try TestCertificateAuthority(folder: brokerFolder.path)
        let broker = try Self.broker(in: brokerFolder, authority: authority)
        defer { broker.stop() }
        let subscriber = try MosquittoSubscriber(port: broker.plainPort, topic: "owntracks/#",
                                                 outputPath: folder.file("received.txt"),
                                                 user: ("reader", "reader-secret"))
        defer { subscriber.stop() }
        #expect(await poll(upTo: 20) { broker.hasSubscription("trackd-test-subscriber", "owntracks/#") },
                "mosquitto_sub \(subscriber.isRunning ? "runs" : "ended"): \(subscriber.output)\n\(broker.log)")
        let daemon = try await Self.start(in: folder, broker: broker, caFile: authority.certificate,
                                          password: "right horse battery")
        let connected = await poll(upTo: 60) { await Self.uplink(daemon)?["state"] as? String == "connected" }
        let uplink = await Self.uplink(daemon)
        #expect(connected, "\(String(describing: uplink))\n\(daemon.process.output)")
        let arrived = await poll(upTo: 60) {
            subscriber.messages.contains { $0.payload.contains("\"\(Self.device)/1/start\"") }
                && subscriber.messages.contains { $0.topic == "owntracks/trackd/\(Self.device)" }
        }
        #expect(arrived, "\(subscriber.messages.prefix(3))")
        #expect(broker.log.contains("as \(Self.device)"), "the car logged in as its user")
        // status: the last message acknowledged, and the GPS time of the newest position among them.
        let acknowledged = await poll(upTo: 30) {
            (await Self.uplink(daemon)?["last_acknowledged_time"] as? String)?.hasPrefix("2026-11-22T08:") == true
        }
        let status = await Self.uplink(daemon)
        #expect(acknowledged, "\(String(describing: status))")
        #expect((status?["last_acknowledged"] as? String)?.hasPrefix("\(Self.device)/1/") == true)
        await daemon.stop()
    }

    @Test func aWrongPasswordIsRefusedAndSaysSoInStatusAndTheJournal() async throws {
        let folder = try TemporaryFolder()
        let brokerFolder = try TemporaryFolder()
        let authority = try TestCertificateAuthority(folder: brokerFolder.path)
        let broker = try Self.broker(in: brokerFolder, authority: authority)
        defer { broker.stop() }
        let daemon = try await Self.start(in: folder, broker: broker, caFile: authority.certificate,
                                          password: "wrong horse battery")
        // The status that said so (a minute passes before the broker is asked again).
        var uplink: [String: Any]?
        let refused = await poll(upTo: 60) {
            uplink = await Self.uplink(daemon)
            return uplink?["state"] as? String == "refused"
        }
        #expect(refused, "\(String(describing: uplink))")
        let detail = uplink?["detail"] as? String ?? ""
        #expect(detail.contains("refused") && detail.lowercased().contains("not authori"), "\(detail)")
        #expect(daemon.process.output.contains("uplink refused by the broker"), "\(daemon.process.output)")
        // The log goes on: the trip is recorded whatever the broker says.
        let status = await daemon.status()
        #expect((status?["trip"] as? [String: Any]) != nil)
        #expect((uplink?["backlog_points"] as? Int ?? 0) >= 0)
        await daemon.stop()
    }

    @Test func aBrokerCertificateFromAnotherCAIsNotTrustedAndSaysWhy() async throws {
        let folder = try TemporaryFolder()
        let brokerFolder = try TemporaryFolder()
        let authority = try TestCertificateAuthority(folder: brokerFolder.path)
        let stranger = try TestCertificateAuthority(folder: folder.path, name: "another CA")
        let broker = try Self.broker(in: brokerFolder, authority: authority)
        defer { broker.stop() }
        let daemon = try await Self.start(in: folder, broker: broker, caFile: stranger.certificate,
                                          password: "right horse battery")
        let failed = await poll(upTo: 60) {
            let uplink = await Self.uplink(daemon)
            return uplink?["state"] as? String == "waiting" && (uplink?["detail"] as? String)?.contains("certificate") == true
        }
        let uplink = await Self.uplink(daemon)
        #expect(failed, "\(String(describing: uplink))")
        #expect(daemon.process.output.contains("uplink lost") || daemon.process.output.contains("uplink cannot connect"),
                "\(daemon.process.output)")
        #expect(!broker.log.contains("as \(Self.device)"), "never logged in")
        await daemon.stop()
    }
}
