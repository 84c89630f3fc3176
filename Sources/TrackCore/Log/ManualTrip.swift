
/// A trip entered by hand: its date, how far (a distance or the odometer at the end), and what it was.
public struct ManualTrip: Sendable, Hashable, Codable {
    /// How far the trip went.
    public enum Extent: Sendable, Hashable, Codable {
        /// Metres.
        case distance(Double)
        /// The odometer at the end, metres.
        case odometerEnd(Double)
    }

    /// The local calendar date.
    public var date: CivilDate
    /// Local wall-clock times, seconds after midnight, when known.
    public var startSecond: Int?
    public var endSecond: Int?
    /// How far; `nil` to take the regular trip's distance.
    public var extent: Extent?
    public var kind: TripKind?
    public var purpose: String?
    public var customer: String?
    public var destination: String?
    /// The regular trip to start from.
    public var regular: String?
    /// Why it is entered by hand (kept in the history).
    public var reason: String?

    public init(date: CivilDate, startSecond: Int? = nil, endSecond: Int? = nil, extent: Extent? = nil,
                kind: TripKind? = nil, purpose: String? = nil, customer: String? = nil, destination: String? = nil,
                regular: String? = nil, reason: String? = nil) {
        self.date = date
        self.startSecond = startSecond
        self.endSecond = endSecond
        self.extent = extent
        self.kind = kind
        self.purpose = purpose
        self.customer = customer
        self.destination = destination
        self.regular = regular
        self.reason = reason
    }
}
