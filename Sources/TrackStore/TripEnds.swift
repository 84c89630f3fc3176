import TrackCore

/// Where a running trip starts and, while the car stands, where it ends: the engine's means of the stops, kept in
/// the trip's row as they settle so that a trip a power cut closes starts and ends at them too.
public struct TripEnds: Sendable, Hashable {
    public var start: Coordinate?
    public var end: Coordinate?

    public init(start: Coordinate? = nil, end: Coordinate? = nil) {
        self.start = start
        self.end = end
    }
}
