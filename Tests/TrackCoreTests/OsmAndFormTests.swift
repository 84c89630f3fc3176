import Testing
import TrackCore

/// The log's items as Traccar's OsmAnd protocol takes them.
struct OsmAndFormTests {
    private func fields(_ form: String?) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in (form ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }

    @Test func aTrackPointGivesTraccarsFieldsWithSpeedInKnots() {
        let point = TrackPoint(time: UTCTime(iso8601: "2026-11-22T08:00:02.400Z")!,
                               coordinate: Coordinate(latitude: 59.436_992_31, longitude: -24.753_614_76),
                               speed: 13.9, error: 4.6, distance: 1234.4)
        let form = fields(OsmAndForm.encode(.point(point, tripID: TripID(12), seq: 345), device: "van 1"))
        #expect(form["id"] == "van%201")
        #expect(form["uid"] == "van%201%2F12%2F345")
        #expect(form["timestamp"] == "1795334402")
        #expect(form["lat"] == "59.4369923" && form["lon"] == "-24.7536148")
        #expect(form["speed"] == "27.02", "13.9 m/s in knots")
        #expect(form["accuracy"] == "4.6")
        #expect(form["trip"] == "12" && form["point"] == "345" && form["dist"] == "1234")
    }

    @Test func aTripWithoutAPositionSendsNothingForTraccarToPlaceAtItsLastPosition() {
        let trip = LogTrip(id: TripID(7), kind: .private, source: .gps, state: .closed,
                           start: UTCTime(iso8601: "2026-11-22T08:00:00Z"), end: UTCTime(iso8601: "2026-11-22T08:20:00Z"),
                           distance: 12_345, route: .withheld)
        #expect(OsmAndForm.encode(.tripEnded(trip), device: "van-1") == nil)
        var kept = trip
        kept.route = .recorded
        kept.endPosition = Coordinate(latitude: 59.4, longitude: 24.7)
        let form = fields(OsmAndForm.encode(.tripEnded(kept), device: "van-1"))
        #expect(form["trip_event"] == "end" && form["distance"] == "12345" && form["lat"] == "59.4000000")
    }

    @Test func anIdleAlertIsTraccarsGeneralAlarm() {
        let event = LogEvent(id: 17, kind: .idleAlert, time: UTCTime(iso8601: "2026-11-22T10:15:00Z"), tripID: TripID(7),
                             detail: "stationary since 2026-11-22T08:15:00Z")
        let form = fields(OsmAndForm.encode(.event(event), device: "van-1"))
        #expect(form["alarm"] == "general" && form["event"] == "idle-alert" && form["trip"] == "7")
        #expect(form["lat"] == nil, "Traccar puts it where the car was last")
    }
}
