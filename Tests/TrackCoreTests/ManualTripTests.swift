import Foundation
import Testing
import TrackCore

struct ManualTripTests {
    @Test func readsADistanceInMetresOrAnOdometerInKilometres() throws {
        let byDistance = try JSONDecoder().decode(ManualTrip.self, from: Data(
            #"{"date":"2026-11-20","distance_m":42500,"kind":"business","purpose":"Site visit","start_second":30600}"#.utf8))
        #expect(byDistance.extent == .distance(42_500))
        #expect(byDistance.startSecond == 30_600)
        let byOdometer = try JSONDecoder().decode(ManualTrip.self, from: Data(
            #"{"date":"2026-11-21","odometer_end":48320.5,"kind":"private"}"#.utf8))
        #expect(byOdometer.extent == .odometerEnd(48_320_500))
        let fromTemplate = try JSONDecoder().decode(ManualTrip.self, from: Data(#"{"date":"2026-11-22","regular":"office"}"#.utf8))
        #expect(fromTemplate.extent == nil)
        #expect(fromTemplate.regular == "office")
    }

    @Test func refusesBothADistanceAndAnOdometer() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ManualTrip.self, from: Data(
                #"{"date":"2026-11-21","distance_m":1000,"odometer_end":48320.5}"#.utf8))
        }
    }

    @Test func writesWhatItReads() throws {
        let trip = ManualTrip(date: CivilDate(year: 2026, month: 11, day: 21)!, startSecond: 28_800, endSecond: 30_000,
                              extent: .odometerEnd(48_320_500), kind: .private, purpose: "Shopping", reason: "box off")
        let text = String(decoding: try JSONEncoder().encode(trip), as: UTF8.self)
        #expect(text.contains(#""odometer_end":48320.5"#))
        #expect(try JSONDecoder().decode(ManualTrip.self, from: Data(text.utf8)) == trip)
    }
}
