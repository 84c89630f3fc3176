/// What adding or changing a place did: the place as the log keeps it, and the past trips that started or ended
/// inside it and had no place, which got it (each change in the history).
public struct PlaceUpdate: Sendable, Hashable, Codable {
    public var place: Place
    /// Trips whose start place was filled.
    public var startsNamed: [TripID]
    /// Trips whose end place was filled.
    public var endsNamed: [TripID]

    public init(place: Place, startsNamed: [TripID] = [], endsNamed: [TripID] = []) {
        self.place = place
        self.startsNamed = startsNamed
        self.endsNamed = endsNamed
    }

    enum CodingKeys: String, CodingKey {
        case place
        case startsNamed = "starts_named"
        case endsNamed = "ends_named"
    }
}
