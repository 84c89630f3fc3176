import Testing
@testable import TrackCore

struct FixGateTests {
    private let origin = Coordinate(latitude: 59.437, longitude: 24.7536)

    /// A fix `north` metres north of the origin at `second`, with an error estimate and a speed.
    private func fix(_ second: Double, north: Double = 0, error: Double = 5, speed: Double? = 0.1) -> Fix {
        let point = Geodesic.point(east: 0, north: north, from: origin)
        return Fix(time: UTCTime.iso("2026-11-22T10:00:00Z").adding(seconds: second), mode: .threeD, quality: .gps,
                   latitude: point.latitude, longitude: point.longitude, speed: speed, eph: error)
    }

    /// A gate past its first convergence period.
    private func settledGate() -> FixGate {
        var gate = FixGate(configuration: EngineConfiguration())
        for second in 0..<3 { _ = gate.judge(fix(Double(second))) }
        return gate
    }

    @Test func holdsBackPositionsWhileTheReceiverSettlesAfterAcquiring() {
        var gate = FixGate(configuration: EngineConfiguration())
        #expect(gate.judge(fix(0, error: 80)).positionRejection == .converging)
        #expect(gate.judge(fix(1, error: 40)).positionRejection == .converging)
        #expect(gate.judge(fix(2, error: 10)).positionRejection == .converging)
        #expect(gate.judge(fix(3, error: 10)).positionRejection == .converging)
        #expect(gate.judge(fix(4, error: 10)).trustsPosition)
        // An outage longer than gap_after starts the settling again.
        #expect(gate.judge(fix(30, error: 10)).positionRejection == .converging)
    }

    @Test func usesTheSpeedOfAFixWhosePositionItRefuses() {
        var gate = settledGate()
        let verdict = gate.judge(fix(3, north: 12, error: 120, speed: 12))
        #expect(verdict.isUsable)
        #expect(verdict.positionRejection == .inaccurate)
        #expect(verdict.speedRejection == nil)
    }

    @Test func refusesAJumpUntilLaterFixesConfirmIt() {
        var gate = settledGate()
        #expect(gate.judge(fix(3, north: 500)).positionRejection == .jump)
        #expect(gate.judge(fix(4, north: 0)).trustsPosition)   // back: it was a glitch
        #expect(gate.judge(fix(5, north: 800)).positionRejection == .jump)
        #expect(gate.judge(fix(6, north: 805)).positionRejection == .jump)
        #expect(gate.judge(fix(7, north: 810)).trustsPosition)  // twice confirmed: the receiver was right
        #expect(gate.judge(fix(8, north: 815)).trustsPosition)
    }

    @Test func allowsForTheErrorEstimatesBeforeCallingItAJump() {
        var gate = settledGate()
        // 120 m in a second with ±50 m at either end: 20 m/s, plausible.
        _ = gate.judge(fix(3, error: 50))
        #expect(gate.judge(fix(4, north: 120, error: 50)).trustsPosition)
    }

    @Test func refusesDuplicatesStragglersAndFixesWithoutTimeOrPosition() {
        var gate = settledGate()
        #expect(gate.judge(fix(2)).rejection == .notAfterLast)
        #expect(gate.judge(fix(1)).rejection == .notAfterLast)
        #expect(gate.judge(Fix(time: nil, mode: .threeD, latitude: 1, longitude: 2)).rejection == .noTime)
        #expect(gate.judge(Fix(time: .iso("2026-11-22T11:00:00Z"), mode: .noFix)).rejection == .noFix)
        #expect(gate.judge(fix(3)).isUsable)
    }

    @Test func refusesImpossibleSpeedsButKeepsThePosition() {
        var gate = settledGate()
        _ = gate.judge(fix(3, speed: 10))
        let tooFast = gate.judge(fix(4, north: 10, speed: 80))
        #expect(tooFast.speedRejection == .tooFast)
        #expect(tooFast.trustsPosition)
        // Checked against the last speed used (10 m/s at second 3).
        #expect(gate.judge(fix(5, north: 20, speed: 10.5)).speedRejection == nil)
        #expect(gate.judge(fix(6, north: 30, speed: 30)).speedRejection == .impossibleChange)
        #expect(gate.judge(fix(7, north: 40, speed: 11)).speedRejection == nil)
    }

    @Test func refusesAPositionRepeatedToTheDigitWhileTheSpeedSaysItMoved() {
        var gate = settledGate()
        _ = gate.judge(fix(3, north: 0, speed: 13))
        #expect(gate.judge(fix(4, north: 0, speed: 13)).rejection == .stale)
        // At rest a repeated position is normal (static hold).
        #expect(gate.judge(fix(5, north: 0, speed: 0.1)).isUsable)
    }
}
