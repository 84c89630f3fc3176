import Foundation
import TestSupport
import Testing
import TrackCore

/// The OsmAnd (Traccar) uplink through the real daemon, against a real HTTP server on loopback in Traccar's role.
@Suite(.serialized)
struct OsmAndUplinkTests {
    static let device = "traccar-car"

    @Test func everyPointArrivesWithTheFieldsTraccarDocumentsAndOutagesOfTheServerLoseNothing() async throws {
        let folder = try TemporaryFolder()
        let serverFolder = try TemporaryFolder()
        let server = try HTTPReceiver(folder: serverFolder.path)
        defer { server.stop() }
        let drive = folder.file("drive.nmea")
        try FileManager.default.copyItem(atPath: DriveLog.demo, toPath: drive)
        try DriveLog.appendParking(to: drive, seconds: 2400)
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(drive)?speed=20", autoStart: "business",
                                            configuration: """
                                                uplink:
                                                  osmand: http://127.0.0.1:\(server.port)
                                                  device: \(Self.device)
                                                  reconnect_max: 2
                                                """)
        // The server fails (503) for a while during the drive (from 08:03 by the recording's GPS time), then is
        // gone altogether (from 08:06), then back (08:09).
        #expect(await daemon.reached("2026-11-22T08:03:00"), "\(daemon.process.output)")
        server.failing = true
        #expect(await daemon.reached("2026-11-22T08:06:00"), "\(daemon.process.output)")
        server.stop()
        server.failing = false
        var failing: [String: Any]?
        #expect(await poll(upTo: 60) {
            failing = await daemon.status()?["osmand"] as? [String: Any]
            return failing?["state"] as? String == "waiting"
        }, "\(String(describing: failing))")
        #expect(await daemon.reached("2026-11-22T08:09:00"), "\(daemon.process.output)")
        try server.start()
        // Once the drive is over (08:16) and the server back, everything stored arrives.
        #expect(await daemon.reached("2026-11-22T08:16:30"), "\(daemon.process.output)")
        let stored = try await query(daemon.database, "SELECT trip_id || '/' || seq FROM track_point ORDER BY trip_id, seq")
            .split(separator: "\n").map { "\(Self.device)/\($0)" }
        #expect(stored.count > 500)
        let arrived = await poll(upTo: 60) { Set(server.forms.compactMap { $0["uid"] }).isSuperset(of: stored) }
        #expect(arrived, "\(Set(stored).subtracting(server.forms.compactMap { $0["uid"] }).count) points missing")
        let forms = server.forms
        // Traccar's fields: id, timestamp (s), lat, lon, speed (knots), accuracy (m); trackd's as attributes.
        let point = try #require(forms.first { $0["uid"] == "\(Self.device)/1/100" })
        #expect(point["id"] == Self.device)
        #expect(Int(point["timestamp"] ?? "") ?? 0 > 1_795_000_000)
        #expect(Double(point["lat"] ?? "").map { abs($0 - 59.43) < 0.1 } == true, "\(point)")
        #expect(Double(point["lon"] ?? "") != nil && Double(point["speed"] ?? "") != nil && Double(point["accuracy"] ?? "") != nil)
        #expect(point["trip"] == "1" && point["point"] == "100")
        // The trip's start, with its position, as a position with trip attributes.
        let start = try #require(forms.first { $0["uid"] == "\(Self.device)/1/start" })
        #expect(start["trip_event"] == "start" && start["kind"] == "business" && start["lat"] != nil)
        // In order, apart from the newest position sent ahead after the outage.
        let points = forms.compactMap { $0["point"].flatMap(Int.init) }
        let outOfOrder = zip(points, points.dropFirst()).filter { $0 >= $1 }.count
        #expect(outOfOrder <= 3, "\(outOfOrder) steps back in \(points.count) points")
        let status = await daemon.status()?["osmand"] as? [String: Any]
        #expect(status?["state"] as? String == "connected", "\(String(describing: status))")
        #expect((status?["last_acknowledged_time"] as? String)?.hasPrefix("2026-11-22T08:") == true, "\(String(describing: status))")
        // A stop: the trip's end, closed then, goes before trackd does.
        await daemon.stop()
        #expect(server.forms.contains { $0["uid"] == "\(Self.device)/1/end" && $0["trip_event"] == "end" }, """
            \(server.forms.suffix(2)); trackd's uplink said: \
            \(daemon.process.output.split(separator: "\n").filter { $0.contains("OsmAnd") || $0.contains("shutdown") }.joined(separator: "\n"))
            """)
    }
}
