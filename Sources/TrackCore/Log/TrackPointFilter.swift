/// Chooses which of the engine's track points the log stores. While the vehicle moves, every point is kept (the
/// track is the evidence); while it stands, only a point that has drifted from the last one kept by more than
/// `standingSpacing` (so a parked car costs no writes), and always the first point after an outage.
public struct TrackPointFilter: Sendable, Hashable {
    /// Metres a standing vehicle's position must move before another point is kept.
    public var standingSpacing: Double
    private var lastKept: TrackPoint?
    private var lastSegment: Int?

    public init(standingSpacing: Double = 25) {
        self.standingSpacing = standingSpacing
    }

    /// Whether to store `point` of `segment`, given whether the engine judges the vehicle to be moving.
    public mutating func keep(_ point: TrackPoint, segment: Int, moving: Bool) -> Bool {
        defer { lastSegment = segment }
        guard let last = lastKept, segment == lastSegment, !moving else {
            lastKept = point
            return true
        }
        guard Geodesic.distance(from: last.coordinate, to: point.coordinate) > standingSpacing else { return false }
        lastKept = point
        return true
    }

    /// Starts afresh (a new trip).
    public mutating func reset() {
        lastKept = nil
        lastSegment = nil
    }
}
