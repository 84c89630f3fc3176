import Foundation
import Testing
import TrackCore

/// What the uplink publishes for the log's items: OwnTracks locations, trip and event messages.
struct UplinkMessageTests {
    private func object(_ message: UplinkMessage) throws -> [String: Any] {
        let data = try JSONEncoder().encode(message)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aTrackPointIsAnOwnTracksLocationOnTheBaseTopic() throws {
        let point = TrackPoint(time: UTCTime(iso8601: "2026-11-22T08:00:02.400Z")!,
                               coordinate: Coordinate(latitude: 59.436_992_27, longitude: 24.753_614_76),
                               speed: 13.9, error: 4.6, distance: 1234.4)
        let message = UplinkMessage(.point(point, tripID: TripID(12), seq: 345), device: "van-1")
        #expect(message.topic(base: "owntracks/trackd/van-1") == "owntracks/trackd/van-1")
        let fields = try object(message)
        #expect(fields["_type"] as? String == "location")
        #expect(fields["lat"] as? Double == 59.436_992_3)
        #expect(fields["lon"] as? Double == 24.753_614_8)
        #expect(fields["tst"] as? Int == 1_795_334_402)
        #expect(fields["vel"] as? Int == 50, "km/h")
        #expect(fields["acc"] as? Int == 5)
        #expect(fields["tid"] as? String == "n1", "the last two letters or digits of the name")
        #expect(fields["id"] as? String == "van-1/12/345")
        #expect(fields["trip"] as? Int == 12 && fields["point"] as? Int == 345 && fields["dist"] as? Int == 1234)
    }

    @Test func aPrivateTripsEndSaysNothingOfWhereItWent() throws {
        let trip = LogTrip(id: TripID(7), kind: .private, source: .gps, state: .closed,
                           start: UTCTime(iso8601: "2026-11-22T08:00:00Z"), end: UTCTime(iso8601: "2026-11-22T08:20:00Z"),
                           distance: 12_345, route: .withheld)
        let fields = try object(UplinkMessage(.tripEnded(trip), device: "van-1"))
        #expect(fields["_type"] as? String == "trip" && fields["event"] as? String == "end")
        #expect(fields["id"] as? String == "van-1/7/end")
        #expect(fields["distance"] as? Double == 12.345)
        #expect(fields["route"] as? String == "withheld")
        for key in ["start_lat", "start_lon", "end_lat", "end_lon", "start_place", "end_place"] {
            #expect(fields[key] == nil, "\(key)")
        }
    }

    @Test func anIdleAlertIsAnEventOnItsSubtopic() throws {
        let event = LogEvent(id: 17, kind: .idleAlert, time: UTCTime(iso8601: "2026-11-22T10:15:00Z"), tripID: TripID(7),
                             detail: "stationary since 2026-11-22T08:15:00Z")
        let message = UplinkMessage(.event(event), device: "van-1")
        #expect(message.topic(base: "owntracks/trackd/van-1") == "owntracks/trackd/van-1/event")
        let fields = try object(message)
        #expect(fields["_type"] as? String == "event" && fields["event"] as? String == "idle-alert")
        #expect(fields["id"] as? String == "van-1/7/e17")
    }

    @Test func aBrokerAddressNamesItsSchemeHostAndPort() {
        #expect(MQTTAddress(parsing: "mqtt://broker.example.com") == MQTTAddress(host: "broker.example.com", port: 1883, tls: false))
        #expect(MQTTAddress(parsing: "mqtts://broker.example.com") == MQTTAddress(host: "broker.example.com", port: 8883, tls: true))
        #expect(MQTTAddress(parsing: "mqtt://10.0.0.2:1884/") == MQTTAddress(host: "10.0.0.2", port: 1884, tls: false))
        #expect(MQTTAddress(parsing: "mqtts://[::1]:8884") == MQTTAddress(host: "::1", port: 8884, tls: true))
        for bad in ["tcp://broker", "mqtt://", "mqtt://host:0", "mqtt://host:99999", "mqtt://user@host", "broker:1883"] {
            #expect(MQTTAddress(parsing: bad) == nil, "\(bad)")
        }
    }
}
