/// An outage — a tunnel, a garage, a dropped link — and what the engine made of it.
public struct GapReport: Sendable, Hashable, Codable {
    /// How the gap was counted.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// The straight line between the positions on either side.
        case straightLine = "straight_line"
        /// The straight line lengthened to the arc that the change of course across the gap implies
        /// (at most `maxBridgeCurvature` times the straight line).
        case curve
        /// The car's own speed (OBD-II), integrated over the outage.
        case carSpeed = "car_speed"
        /// The vehicle stood in the same place on both sides: nothing driven.
        case parked
        /// Not bridged: see `note`.
        case notBridged = "not_bridged"
    }

    /// The last fix before the gap.
    public var start: UTCTime
    /// The first fix after it.
    public var end: UTCTime
    /// Seconds.
    public var duration: Double
    public var outcome = Outcome.notBridged
    /// The straight line across, metres, when there were positions on both sides.
    public var straightLine: Double?
    /// What the car's own speed gave for the outage, metres, when its readings covered it.
    public var carSpeedDistance: Double?
    /// What was added to the distance, metres.
    public var distance = 0.0
    /// Why it was not bridged, or what else there is to know.
    public var note: String?
    /// The drive before the trip's first fix: from where the car was parked (`ParkedOrigin`) to its first trusted
    /// position, while the board booted.
    public var beforeFirstFix = false

    public init(start: UTCTime, end: UTCTime, duration: Double) {
        self.start = start
        self.end = end
        self.duration = duration
    }

    /// Whether distance was added for the gap.
    public var isBridged: Bool { outcome == .straightLine || outcome == .curve || outcome == .carSpeed }
}
