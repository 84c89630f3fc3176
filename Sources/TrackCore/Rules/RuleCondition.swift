/// When a rule classifies a trip.
public enum RuleCondition: Sendable, Hashable {
    /// A trip from one named place to another (and back, with `eitherWay`).
    case places(from: PlaceID, to: PlaceID, eitherWay: Bool)
    /// A trip within the driver's hours (`outside`: wholly outside them).
    case hours(WorkHours, outside: Bool)
    /// A trip between the places of a regular trip, either way: it takes the regular trip's kind, purpose, customer
    /// and destination as they are when the trip closes.
    case regular(String)

    /// The kind of condition, as JSON and SQL name it.
    public var type: String {
        switch self {
        case .places: "places"
        case .hours: "hours"
        case .regular: "regular"
        }
    }

    /// The order rules are tried in: the place pairs one way, then either way, then regular trips, then hours.
    var precedence: Int {
        switch self {
        case .places(_, _, let eitherWay): eitherWay ? 1 : 0
        case .regular: 2
        case .hours: 3
        }
    }
}
