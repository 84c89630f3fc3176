/// A `trip` notification to watchers: a trip started, carried on after a power cut, or ended — the change, and the
/// trip's one view (`TripView`) in the same object.
public struct TripNotice: Sendable, Codable, Hashable {
    /// What happened to the trip.
    public enum Change: String, Sendable, Codable, Hashable {
        case started
        /// Carried on after a power cut.
        case resumed
        case ended
    }

    public var change: Change
    public var trip: TripView

    public init(_ change: Change, _ trip: Trip) {
        self.change = change
        self.trip = TripView(trip)
    }

    private enum CodingKeys: String, CodingKey {
        case change
    }

    public init(from decoder: any Decoder) throws {
        change = try decoder.container(keyedBy: CodingKeys.self).decode(Change.self, forKey: .change)
        trip = try TripView(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try trip.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(change, forKey: .change)
    }
}
