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

    /// These ends, with `older`'s where these have none (a newer note over one that waited).
    public func over(_ older: TripEnds) -> TripEnds {
        TripEnds(start: start ?? older.start, end: end ?? older.end)
    }

    /// `newer` over `older`, either of which may be missing.
    public static func merging(_ newer: TripEnds?, over older: TripEnds?) -> TripEnds? {
        guard let newer else { return older }
        return older.map { newer.over($0) } ?? newer
    }
}
