/// A `trip` notification to watchers: a trip started, carried on after a power cut, or ended.
public struct TripNotice: Sendable, Codable, Hashable {
    /// What happened to the trip.
    public enum Change: String, Sendable, Codable, Hashable {
        case started
        /// Carried on after a power cut.
        case resumed
        case ended
    }

    public var change: Change
    public var number: TripID
    public var kind: TripKind
    public var purpose: String?
    /// GPS times of its first and last fix, when known.
    public var start: UTCTime?
    public var end: UTCTime?
    /// Distance so far (calibrated), metres.
    public var distance: Double

    public init(_ change: Change, _ trip: Trip) {
        self.change = change
        number = trip.number
        kind = trip.kind
        purpose = trip.purpose
        start = trip.start
        end = trip.end
        distance = trip.distance
    }

    enum CodingKeys: String, CodingKey {
        case change, number, kind, purpose, start, end
        case distance = "distance_m"
    }
}
