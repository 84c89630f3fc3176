import RealModule
import Testing
@testable import TrackCore

/// The heart of the distance, alone: samples as the gate lets them through, and what the tracker makes of them —
/// the speed integrated by trapezoids, starts confirmed or not, receivers without speed, outages bridged or
/// explained. Each expected figure is worked out by hand from the documented rule, not read back from the code.
struct MotionTrackerTests {
    @Test func integratesTheReportedSpeedByTrapezoids() {
        var drive = Drive()
        for second in 0...4 { drive.at(Double(second), speed: 0) }
        for second in 5...14 { drive.at(Double(second), speed: 10) }
        drive.at(15, speed: 0)
        // 0 → 10 m/s over a second (5 m), 10 m/s for nine seconds (90 m), 10 → 0 over a second (5 m).
        #expect(drive.tracker.distance == 100)
        #expect(drive.changes == ["stopped 0", "moving 5", "stopped 15"])
        #expect(!drive.tracker.isMoving)
        #expect(drive.tracker.stationarySince == drive.time(15))
    }

    @Test func addsNothingForALoneSpeedSpikeBelowTheCertainSpeed() {
        var drive = Drive()
        for second in 0...4 { drive.at(Double(second), speed: 0) }
        drive.at(5, speed: 1.0)  // above movingSpeed (0.5), below certainSpeed (2.5), one sample only
        for second in 6...10 { drive.at(Double(second), speed: 0) }
        #expect(drive.tracker.distance == 0)
        #expect(drive.changes == ["stopped 0"])
    }

    @Test func confirmsASustainedSlowStartAndCountsItFromItsFirstSample() {
        var drive = Drive()
        for second in 0...4 { drive.at(Double(second), speed: 0) }
        drive.at(5, speed: 1.0)
        drive.at(6, speed: 1.0)
        // Two samples, a second apart (motionConfirmation), 0.5 + 1.0 = 1.5 m (confirmationDistance is 1 m).
        #expect(drive.tracker.distance == 1.5)
        #expect(drive.changes == ["stopped 0", "moving 5"])
    }

    @Test func countsTheSlowLeadInBeforeTheSpeedStoodOut() {
        var drive = Drive()
        for second in 0...2 { drive.at(Double(second), speed: 0) }
        drive.at(3, speed: 0.3)  // at or above stoppedSpeed (0.2), below movingSpeed: the car begins to roll
        drive.at(4, speed: 0.4)
        drive.at(5, speed: 3.0)  // certain
        // Lead-in: (0 + 0.3) / 2 + (0.3 + 0.4) / 2 = 0.5 m; then (0.4 + 3.0) / 2 = 1.7 m.
        #expect(abs(drive.tracker.distance - 2.2) < 1e-9)
        #expect(drive.changes == ["stopped 0", "moving 5"])
    }

    @Test func keepsMovingAboveTheStoppedSpeedAndStopsBelowIt() {
        var drive = Drive()
        drive.at(0, speed: 10)
        drive.at(1, speed: 0.3)
        #expect(drive.tracker.isMoving, "0.3 m/s is slow, not stopped (stoppedSpeed 0.2)")
        drive.at(2, speed: 0.1)
        #expect(!drive.tracker.isMoving)
        #expect(drive.changes == ["moving 0", "stopped 2"])
        // (10 + 0.3) / 2 + (0.3 + 0.1) / 2
        #expect(abs(drive.tracker.distance - 5.35) < 1e-9)
    }

    @Test func measuresAReceiverWithoutSpeedFromItsPositions() {
        var drive = Drive()
        for second in 0...9 { drive.at(Double(second), east: 0, error: 3) }
        // 10 m/s east for 50 s, then parked.
        for second in 10...59 { drive.at(Double(second), east: 10 * Double(second - 9), error: 3) }
        for second in 60...90 { drive.at(Double(second), east: 500, error: 3) }
        // The parked spot averages the positions within minDisplacement (30 m) of it: the eleven at 0 m and the
        // first three of the start (10, 20, 30 m), so its centre ends 60 / 14 m east. The spot is left by more
        // than 30 m at second 13, for displacementPersistence (15 s): counted from the centre; from then every
        // step of 5 m or more counts; 20 s without one is a stop, from the last step.
        #expect(abs(drive.tracker.distance - (500 - 60.0 / 14)) < 0.05, "\(drive.tracker.distance)")
        #expect(drive.changes == ["stopped 0", "moving 13", "stopped 59"])
    }

    @Test func bridgesATunnelWithTheStraightLineLengthenedByTheTurnAcrossIt() throws {
        var drive = Drive()
        for second in 0...10 { drive.at(Double(second), speed: 20, east: 20 * Double(second), course: 90) }
        // 30 s without a fix; out of the tunnel 400 m east and 400 m south of its mouth, heading south.
        drive.at(40, speed: 20, east: 600, north: -400, course: 180)
        let gap = try #require(drive.gaps.first)
        #expect(gap.outcome == .curve)
        // Straight line √(400² + 400²) = 565.69 m; the course turned 90°: × (π/4) / sin(π/4) = 1.1107.
        let expected = (400.0 * 400 * 2).squareRoot() * (Double.pi / 4) / Double.sin(Double.pi / 4)
        #expect(abs(gap.distance - expected) < 0.5, "\(gap.distance) against \(expected)")
        #expect(abs(drive.tracker.distance - (200 + gap.distance)) < 0.5)
    }

    @Test func refusesToBridgeAnOutageFasterThanAnyVehicle() throws {
        var drive = Drive()
        for second in 0...10 { drive.at(Double(second), speed: 20, east: 20 * Double(second), course: 90) }
        drive.at(20, speed: 20, east: 200 + 10_000, course: 90)  // 10 km in 10 s
        let gap = try #require(drive.gaps.first)
        #expect(gap.outcome == .notBridged)
        #expect(gap.distance == 0)
        #expect(drive.tracker.distance == 200)
    }

    @Test func explainsAnOutageWhileParkedAsParkedAndTheStopGoesOn() throws {
        var drive = Drive()
        for second in 0...10 { drive.at(Double(second), speed: 0, east: 0, error: 5) }
        drive.at(600, speed: 0, east: 8, error: 5)  // ten minutes under a roof, 8 m of position noise
        let gap = try #require(drive.gaps.first)
        #expect(gap.outcome == .parked)
        #expect(drive.tracker.distance == 0)
        #expect(drive.tracker.stationarySince == drive.time(0), "the stop is counted from before the outage")
    }

    @Test func forgetsAStartThatWasNeverConfirmed() {
        var drive = Drive()
        for second in 0...4 { drive.at(Double(second), speed: 0) }
        drive.at(5, speed: 1.0)
        drive.tracker.discardUnconfirmed()
        drive.at(6, speed: 1.0)
        // The candidate from second 5 is gone: second 6 starts a new one, which one sample cannot confirm.
        #expect(drive.tracker.distance == 0)
        #expect(drive.changes == ["stopped 0"])
    }
}

/// A tracker fed by hand: seconds from a fixed start, positions as metres east and north of a fixed origin.
private struct Drive {
    var tracker = MotionTracker(configuration: EngineConfiguration())
    var events: [MotionTracker.Event] = []
    let start = UTCTime(secondsSinceEpoch: 1_795_000_000)
    let origin = Coordinate(latitude: 59.437, longitude: 24.7536)

    func time(_ second: Double) -> UTCTime { start.adding(seconds: second) }

    mutating func at(_ second: Double, speed: Double? = nil, east: Double? = nil, north: Double = 0,
                     error: Double = 5, course: Double? = nil) {
        let coordinate = east.map { Geodesic.point(east: $0, north: north, from: origin) }
        let sample = MotionTracker.Sample(time: time(second), coordinate: coordinate, error: coordinate == nil ? nil : error,
                                          speed: speed, course: course)
        tracker.add(sample) { events.append($0) }
    }

    /// The state changes, as `moving S` and `stopped S` with S the second they count from.
    var changes: [String] {
        events.compactMap { event in
            switch event {
            case .startedMoving(let time): "moving \(Int(time.seconds(since: start)))"
            case .stopped(let time): "stopped \(Int(time.seconds(since: start)))"
            default: nil
            }
        }
    }

    var gaps: [GapReport] {
        events.compactMap { if case .gap(let report) = $0 { report } else { nil } }
    }
}
