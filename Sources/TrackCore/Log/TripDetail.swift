
/// One trip with everything known about it: its changes, its events, the size of its track.
public struct TripDetail: Sendable, Hashable, Codable {
    public var trip: LogTrip
    public var revisions: [LogRevision]
    public var events: [LogEvent]
    public var trackPoints: Int
    public var segments: Int

    public init(trip: LogTrip, revisions: [LogRevision], events: [LogEvent], trackPoints: Int, segments: Int) {
        self.trip = trip
        self.revisions = revisions
        self.events = events
        self.trackPoints = trackPoints
        self.segments = segments
    }

    enum CodingKeys: String, CodingKey {
        case trip, revisions, events
        case trackPoints = "track_points"
        case segments
    }
}
