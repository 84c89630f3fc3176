import Testing
@testable import TrackCore

@Suite("After a power cut: carry on with the trip or close it")
struct PowerCutRecoveryTests {
    let recovery = PowerCutRecovery(resumeWithin: 300, maxSpeed: 70, parkedDistance: 30)
    let last = TrackPoint(time: UTCTime(iso8601: "2026-11-20T08:10:00Z")!, coordinate: Coordinate(latitude: 59.437, longitude: 24.7536),
                          speed: 12, error: 4, distance: 6_000)

    @Test func aShortInterruptionWhileStandingResumesWithNothingAdded() {
        let decision = recovery.decide(lastPoint: last, time: last.time.adding(seconds: 40),
                                       coordinate: Geodesic.point(east: 5, north: 3, from: last.coordinate), error: 5)
        guard case .resume(let gap) = decision else { Issue.record("expected resume, got \(decision)"); return }
        #expect(gap.outcome == .parked)
        #expect(gap.distance == 0)
        #expect(gap.duration == 40)
        #expect(gap.note == "power cut")
    }

    @Test func aShortInterruptionWhileDrivingIsBridgedWithTheStraightLine() {
        let decision = recovery.decide(lastPoint: last, time: last.time.adding(seconds: 60),
                                       coordinate: Geodesic.point(east: 600, north: 0, from: last.coordinate), error: 5)
        guard case .resume(let gap) = decision else { Issue.record("expected resume, got \(decision)"); return }
        #expect(gap.outcome == .straightLine)
        #expect(abs(gap.distance - 600) < 0.5)
    }

    @Test func aLongInterruptionClosesTheTrip() {
        let decision = recovery.decide(lastPoint: last, time: last.time.adding(seconds: 301),
                                       coordinate: last.coordinate, error: 5)
        #expect(decision == .close(reason: "the power was off for 301 s, longer than the 300 s within which a trip carries on"))
    }

    @Test func anImpossibleJumpClosesTheTrip() {
        let decision = recovery.decide(lastPoint: last, time: last.time.adding(seconds: 10),
                                       coordinate: Geodesic.point(east: 5_000, north: 0, from: last.coordinate), error: 5)
        guard case .close(let reason) = decision else { Issue.record("expected close, got \(decision)"); return }
        #expect(reason.contains("farther than a vehicle can go"))
    }

    @Test func aTripWithoutStoredPointsCloses() {
        guard case .close = recovery.decide(lastPoint: nil, time: last.time, coordinate: last.coordinate, error: 5) else {
            Issue.record("expected close")
            return
        }
    }
}
