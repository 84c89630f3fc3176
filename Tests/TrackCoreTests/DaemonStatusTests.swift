import Testing
@testable import TrackCore

/// The status in one line, as `systemctl status trackd` shows it.
struct DaemonStatusTests {
    private func status(state: SourceStatus.State = .connected, fix: Fix? = nil, trip: TripView? = nil,
                        motion: MotionStatus? = nil) -> DaemonStatus {
        DaemonStatus(version: "trackd 0.1.0", source: SourceStatus(address: "gpsd://localhost:2947", state: state,
                                                                   detail: "gpsd localhost:2947"),
                     lastFix: fix, trip: trip, motion: motion)
    }

    @Test func saysATripItsDistanceAndTheFixInOneLine() {
        var trip = Trip(number: 3, kind: .business, purpose: nil, calibrationFactor: 1, startedAt: MonotonicInstant(nanoseconds: 0))
        trip.measuredDistance = 12_449
        let fix = Fix(mode: .threeD, latitude: 59.4, longitude: 24.7, satellitesUsed: 9)
        let line = status(fix: fix, trip: TripView(trip, now: MonotonicInstant(nanoseconds: 0))).summaryLine
        #expect(line == "business trip 12.4 km · 3D fix 9 sats")
        let parked = status(fix: fix, trip: TripView(trip, now: MonotonicInstant(nanoseconds: 0)),
                            motion: MotionStatus(state: .stationary, since: nil)).summaryLine
        #expect(parked == "business trip 12.4 km, parked · 3D fix 9 sats")
    }

    @Test func saysWhatItWaitsFor() {
        #expect(status().summaryLine == "no trip · waiting for GPS")
        #expect(status(fix: Fix(mode: .noFix)).summaryLine == "no trip · waiting for GPS")
        #expect(status(state: .lost).summaryLine == "no trip · source lost: gpsd localhost:2947")
    }

    @Test func saysTheStorageOnlyWhenItFails() {
        var failing = status(fix: Fix(mode: .threeD, satellitesUsed: 7))
        failing.storage = StorageStatus(state: .ok, detail: "/var/lib/trackd/trackd.sqlite")
        #expect(failing.summaryLine == "no trip · 3D fix 7 sats")
        failing.storage = StorageStatus(state: .failing, detail: "disk full: cannot write /var/lib/trackd/trackd.sqlite",
                                        pendingPoints: 120)
        #expect(failing.summaryLine
                == "no trip · 3D fix 7 sats · storage failing: disk full: cannot write /var/lib/trackd/trackd.sqlite")
    }
}
