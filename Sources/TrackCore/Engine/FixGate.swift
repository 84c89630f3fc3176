/// The accuracy gate: decides, fix by fix, what the engine may use — the position, the Doppler speed, or
/// nothing — and why. Pure and deterministic; time comes from the fixes.
struct FixGate: Sendable {
    var configuration: EngineConfiguration

    /// Time of the last fix used in any way.
    private var lastTime: UTCTime?
    /// The last speed used, and when.
    private var lastSpeed: (time: UTCTime, value: Double)?
    /// The last trusted position.
    private var reference: Anchor?
    /// A position that jumped away from `reference`, waiting for later fixes to confirm it.
    private var candidate: Anchor?
    private var candidateConfirmations = 0
    /// While the receiver's position settles after acquiring: since when, and good fixes in a row so far.
    private var convergence: (since: UTCTime, goodInARow: Int)?
    /// Time of the last fix with a position, for telling a new acquisition.
    private var lastPositionTime: UTCTime?
    /// Out-of-order fixes in a row that are in order among themselves: a receiver clock that stepped back.
    private var steppedBack: [UTCTime] = []
    /// The position and time of the previous fix with a position, usable or not (to spot a held fix).
    private var previous: (coordinate: Coordinate, time: UTCTime)?

    struct Anchor: Sendable {
        var coordinate: Coordinate
        var time: UTCTime
        var error: Double
    }

    init(configuration: EngineConfiguration) {
        self.configuration = configuration
    }

    mutating func judge(_ fix: Fix) -> FixVerdict {
        guard fix.mode.hasPosition, let coordinate = fix.coordinate else { return FixVerdict(rejection: .noFix) }
        guard let time = fix.time else { return FixVerdict(rejection: .noTime) }
        if fix.quality.isDeadReckoning && configuration.deadReckoning == .reject {
            return FixVerdict(rejection: .deadReckoning)
        }
        defer { previous = (coordinate, time) }
        if let previous, isHeld(coordinate, at: time, speed: fix.speed, after: previous) {
            return FixVerdict(rejection: .stale)
        }
        if let lastTime, time <= lastTime {
            // A receiver whose clock steps back keeps reporting, in order, from the new time: after five such
            // fixes the new timeline is taken; single duplicates and stragglers stay rejected.
            if let previous = steppedBack.last, time <= previous { steppedBack.removeAll() }
            steppedBack.append(time)
            guard steppedBack.count >= 5 else { return FixVerdict(rejection: .notAfterLast) }
            reset()
        }
        steppedBack.removeAll()

        var verdict = FixVerdict()
        verdict.speedRejection = judgeSpeed(fix, at: time)
        verdict.positionRejection = judgePosition(coordinate, error: fix.eph, at: time)
        lastTime = time
        lastPositionTime = time
        return verdict
    }

    /// Forgets the history, as after a clock step: the next fix starts afresh.
    private mutating func reset() {
        lastTime = nil
        lastSpeed = nil
        reference = nil
        candidate = nil
        candidateConfirmations = 0
        convergence = nil
        lastPositionTime = nil
    }

    private mutating func judgeSpeed(_ fix: Fix, at time: UTCTime) -> SpeedRejection? {
        guard let speed = fix.speed else { return nil }
        if speed > configuration.maxSpeed { return .tooFast }
        if let last = lastSpeed {
            let elapsed = time.seconds(since: last.time)
            if elapsed <= configuration.gapAfter,
               abs(speed - last.value) > configuration.maxAcceleration * max(elapsed, 0.1) + 0.5 {
                return .impossibleChange
            }
        }
        lastSpeed = (time, speed)
        return nil
    }

    private mutating func judgePosition(_ coordinate: Coordinate, error: Double?, at time: UTCTime) -> PositionRejection? {
        // A new acquisition (first fix, or after an outage) starts a convergence period.
        if lastPositionTime.map({ time.seconds(since: $0) > configuration.gapAfter }) ?? true {
            convergence = (time, 0)
        }
        let estimate = error ?? 0
        if var settling = convergence {
            if estimate <= configuration.convergedHorizontalError {
                settling.goodInARow += 1
            } else {
                settling.goodInARow = 0
            }
            if settling.goodInARow >= configuration.convergenceFixes
                || time.seconds(since: settling.since) >= configuration.maxConvergence {
                convergence = nil
            } else {
                convergence = settling
                return .converging
            }
        }
        if estimate > configuration.maxHorizontalError { return .inaccurate }

        let here = Anchor(coordinate: coordinate, time: time, error: estimate)
        if let reference, isJump(from: reference, to: here) {
            // Confirmed when two later fixes agree with the new place rather than the old one.
            if let candidate, !isJump(from: candidate, to: here) {
                candidateConfirmations += 1
            } else {
                candidateConfirmations = 0
            }
            candidate = here
            if candidateConfirmations < 2 { return .jump }
        }
        reference = here
        candidate = nil
        candidateConfirmations = 0
        return nil
    }

    /// A position identical to the last digit to the previous one, while the reported speed says the vehicle
    /// covered at least a metre since: the receiver lost its solution and repeats the last fix (seen on SiRF
    /// receivers, which keep sending status `A` with 0 satellites and the last speed).
    private func isHeld(_ coordinate: Coordinate, at time: UTCTime, speed: Double?,
                        after previous: (coordinate: Coordinate, time: UTCTime)) -> Bool {
        guard coordinate == previous.coordinate, let speed, speed >= configuration.certainSpeed else { return false }
        return speed * time.seconds(since: previous.time) >= 1
    }

    /// Whether getting from `a` to `b` takes more than `maxSpeed`, after allowing for both error estimates.
    private func isJump(from a: Anchor, to b: Anchor) -> Bool {
        let elapsed = max(b.time.seconds(since: a.time), 0.1)
        let distance = Geodesic.distance(from: a.coordinate, to: b.coordinate) - a.error - b.error
        return distance / elapsed > configuration.maxSpeed
    }
}
