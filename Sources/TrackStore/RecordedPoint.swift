import TrackCore

/// A track point as the daemon records it: the position and the segment it belongs to (a new one after each outage).
public struct RecordedPoint: Sendable, Hashable {
    public var point: TrackPoint
    public var segment: Int

    public init(point: TrackPoint, segment: Int) {
        self.point = point
        self.segment = segment
    }
}
