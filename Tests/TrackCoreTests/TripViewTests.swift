import Foundation
import Testing
import TrackCore

/// One view of a trip for `status`, the watchers' notices, replay and the journal.
struct TripViewTests {
    /// A trip 12.5 km long as measured, calibrated by 1.02, its fixes 600 s apart on the monotonic clock.
    private func trip() -> Trip {
        var trip = Trip(number: 7, kind: .business, purpose: "Client visit", calibrationFactor: 1.02,
                        startedAt: MonotonicInstant(nanoseconds: 1_000_000_000))
        trip.start = UTCTime(iso8601: "2026-11-22T08:00:00Z")
        trip.end = UTCTime(iso8601: "2026-11-22T08:10:00Z")
        trip.measuredDistance = 12_500
        trip.idleAlerts = 1
        trip.firstFixAt = MonotonicInstant(nanoseconds: 2_000_000_000)
        trip.lastFixAt = MonotonicInstant(nanoseconds: 602_000_000_000)
        var bridged = GapReport(start: trip.start!, end: trip.start!.adding(seconds: 30), duration: 30)
        bridged.outcome = .straightLine
        trip.gaps = [bridged, GapReport(start: trip.start!, end: trip.start!.adding(seconds: 10), duration: 10)]
        return trip
    }

    @Test func showsTheCalibratedDistanceByTheTripsOneFormula() {
        let view = TripView(trip())
        #expect(view.measuredDistance == 12_500)
        #expect(view.distance == Trip.loggedDistance(measured: 12_500, calibrationFactor: 1.02))
        #expect(abs(view.distance - 12_750) < 1e-9)
        #expect(view.bridgedGaps == 1, "the outage not bridged does not count")
        #expect(view.idleAlerts == 1)
    }

    @Test func theDurationRunsToNowWhileShownAsRunningAndToTheLastFixOtherwise() {
        #expect(TripView(trip()).duration == 600)
        #expect(TripView(trip(), now: MonotonicInstant(nanoseconds: 902_000_000_000)).duration == 900)
    }

    @Test func aNoticeCarriesTheViewBesideItsChangeInOneObject() throws {
        let notice = TripNotice(.ended, trip())
        #expect(notice.trip == TripView(trip()))
        let data = try JSONEncoder().encode(notice)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["change", "number", "kind", "purpose", "start", "end", "distance_m",
                                     "measured_distance_m", "duration", "idle_alerts", "bridged_gaps"])
        #expect(object["change"] as? String == "ended")
        #expect(object["number"] as? Int == 7)
        #expect(try JSONDecoder().decode(TripNotice.self, from: data) == notice)
    }
}
