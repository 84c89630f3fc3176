import TrackCore

/// A trip found open when the daemon starts: what a power cut left behind.
public struct OpenTrip: Sendable, Hashable {
    public var trip: LogTrip
    /// The first and the last stored point, if any was stored.
    public var first: RecordedPoint?
    public var last: RecordedPoint?
    public var points: Int

    public init(trip: LogTrip, first: RecordedPoint?, last: RecordedPoint?, points: Int) {
        self.trip = trip
        self.first = first
        self.last = last
        self.points = points
    }
}
