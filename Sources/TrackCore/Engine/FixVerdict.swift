/// What the accuracy gate allows the engine to use of one fix, with the reasons for what it refuses.
public struct FixVerdict: Sendable, Hashable {
    /// Why nothing of the fix can be used; `nil` when something can.
    public var rejection: FixRejection?
    /// Why the position is not trusted, when the fix is otherwise usable.
    public var positionRejection: PositionRejection?
    /// Why the reported speed is not used, when there is one.
    public var speedRejection: SpeedRejection?

    public init(rejection: FixRejection? = nil, positionRejection: PositionRejection? = nil,
                speedRejection: SpeedRejection? = nil) {
        self.rejection = rejection
        self.positionRejection = positionRejection
        self.speedRejection = speedRejection
    }

    /// Whether the fix is used at all.
    public var isUsable: Bool { rejection == nil }
    /// Whether its position is trusted.
    public var trustsPosition: Bool { rejection == nil && positionRejection == nil }
}

/// Why a fix cannot be used at all.
public enum FixRejection: String, Sendable, Hashable, Codable, CaseIterable {
    /// No fix, or a fix without a position (mode below 2D).
    case noFix = "no_fix"
    /// The receiver has not told the date yet, so the fix has no time.
    case noTime = "no_time"
    /// Not later than the last fix used: a duplicate or an out-of-order report.
    case notAfterLast = "not_after_last"
    /// Dead reckoning, and the policy is to reject it.
    case deadReckoning = "dead_reckoning"
    /// The receiver repeats its last position to the digit while reporting that it moves: a held, stale fix.
    case stale
}

/// Why a fix's position is not trusted (its speed may still be).
public enum PositionRejection: String, Sendable, Hashable, Codable, CaseIterable {
    /// The error estimate is above `maxHorizontalError`.
    case inaccurate
    /// The receiver has just acquired and its position is still settling.
    case converging
    /// The position jumps further than a vehicle can go, and later fixes have not confirmed it yet.
    case jump
}

/// Why a reported speed is not used.
public enum SpeedRejection: String, Sendable, Hashable, Codable, CaseIterable {
    /// Faster than `maxSpeed`.
    case tooFast = "too_fast"
    /// A change from the last speed no vehicle can make (`maxAcceleration`).
    case impossibleChange = "impossible_change"
}
