import Foundation
import Testing
@testable import TrackCore

@Suite("Mileage-log entries: rounding that adds up, JSON in kilometres")
struct LogTripTests {
    @Test func rowsAddUpAndChainAfterRounding() {
        // 48210.04 km → 48222.46 km: printed 48210.0 → 48222.5, so the row says 12.5 km, not 12.4.
        let trip = LogTrip(id: 1, kind: .business, source: .gps, state: .closed, odometerStart: 48_210_040,
                           odometerEnd: 48_222_460, distance: 12_420)
        let tenths = trip.reportedTenths
        #expect(tenths.start == 482_100)
        #expect(tenths.end == 482_225)
        #expect(tenths.distance == 125)
        #expect(LogTrip.kilometresText(tenths: tenths.distance) == "12.5")
        let next = LogTrip(id: 2, kind: .private, source: .gps, state: .closed, odometerStart: 48_222_460,
                           odometerEnd: 48_230_000, distance: 7_540)
        #expect(next.reportedTenths.start == tenths.end)
    }

    @Test func withoutOdometerTheDistanceIsRoundedAlone() {
        let trip = LogTrip(id: 1, kind: .business, source: .manual, state: .closed, distance: 8_349)
        #expect(trip.reportedTenths.start == nil)
        #expect(trip.reportedTenths.distance == 83)
        #expect(LogTrip.kilometresText(tenths: -4) == "-0.4")
        #expect(LogTrip.kilometresText(tenths: 0) == "0.0")
    }

    @Test func jsonGivesOdometersInKilometresAndDistanceInMetres() throws {
        let trip = LogTrip(id: 7, kind: .business, purpose: "Visit", source: .gps, state: .closed,
                           start: UTCTime(iso8601: "2026-11-20T08:00:00Z"), end: UTCTime(iso8601: "2026-11-20T08:30:00Z"),
                           odometerStart: 48_210_000, odometerEnd: 48_222_420, distance: 12_420,
                           date: CivilDate(year: 2026, month: 11, day: 20))
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(trip)) as? [String: Any]
        #expect(json?["odometer_start"] as? Double == 48_210)
        #expect(json?["odometer_end"] as? Double == 48_222.42)
        #expect(json?["distance_m"] as? Double == 12_420)
        #expect(json?["start"] as? String == "2026-11-20T08:00:00.000Z")
        #expect(json?["date"] as? String == "2026-11-20")
        #expect(try JSONDecoder().decode(LogTrip.self, from: JSONEncoder().encode(trip)) == trip)
    }

    @Test func aBusinessTripWithoutPurposeIsFlagged() {
        #expect(LogTrip(id: 1, kind: .business, purpose: " ", source: .gps, state: .closed, distance: 1).lacksPurpose == false)
        #expect(LogTrip(id: 1, kind: .business, source: .gps, state: .closed, distance: 1).lacksPurpose)
        #expect(!LogTrip(id: 1, kind: .private, source: .gps, state: .closed, distance: 1).lacksPurpose)
    }
}
