/// A trip's two ends as the clustering needs them: when and where it started and ended (GPS time; the averaged
/// positions of the stops it starts and ends in). Any of them may be missing: a trip without a fix has no position.
public struct TripEndpoints: Sendable, Hashable {
    /// The trip's number.
    public var id: TripID
    /// When the trip started (GPS time).
    public var start: UTCTime?
    /// When the trip ended (GPS time).
    public var end: UTCTime?
    /// Where the car stood when the trip started.
    public var startPosition: Coordinate?
    /// Where the car stood when the trip ended.
    public var endPosition: Coordinate?

    /// A trip's ends; what is not given is unknown.
    public init(id: TripID, start: UTCTime? = nil, end: UTCTime? = nil, startPosition: Coordinate? = nil,
                endPosition: Coordinate? = nil) {
        self.id = id
        self.start = start
        self.end = end
        self.startPosition = startPosition
        self.endPosition = endPosition
    }
}
