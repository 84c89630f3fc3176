
/// A trip entered by hand: its date, how far (a distance or the odometer at the end), and what it was.
///
/// In JSON: `date`, `start_second`/`end_second` (local seconds after midnight), `distance_m` (metres) or
/// `odometer_end` (kilometres, like every odometer value of the protocol), `kind`, `purpose`, `customer`,
/// `destination`, `commute` (a private trip between home and work), `detour`, `regular`, `from`, `to` (named places; with both and no distance, the distance of the last GPS trip
/// between them), `reason`.
public struct ManualTrip: Sendable, Hashable, Codable {
    /// How far the trip went.
    public enum Extent: Sendable, Hashable {
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
    /// A private trip between home and work (`LogTrip.commute`).
    public var commute: Bool
    /// The detour and why (`LogTrip.detour`).
    public var detour: String?
    /// The regular trip to start from.
    public var regular: String?
    /// The named places it started and ended at (a place's number, name or key).
    public var from: String?
    public var to: String?
    /// Why it is entered by hand (kept in the history).
    public var reason: String?

    public init(date: CivilDate, startSecond: Int? = nil, endSecond: Int? = nil, extent: Extent? = nil,
                kind: TripKind? = nil, purpose: String? = nil, customer: String? = nil, destination: String? = nil,
                regular: String? = nil, from: String? = nil, to: String? = nil, reason: String? = nil,
                commute: Bool = false, detour: String? = nil) {
        self.commute = commute
        self.detour = detour
        self.from = from
        self.to = to
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

    enum CodingKeys: String, CodingKey {
        case date, kind, purpose, customer, destination, commute, detour, regular, reason, from, to
        case startSecond = "start_second"
        case endSecond = "end_second"
        case distance = "distance_m"
        case odometerEnd = "odometer_end"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        date = try container.decode(CivilDate.self, forKey: .date)
        startSecond = try container.decodeIfPresent(Int.self, forKey: .startSecond)
        endSecond = try container.decodeIfPresent(Int.self, forKey: .endSecond)
        let distance = try container.decodeIfPresent(Double.self, forKey: .distance)
        let odometerEnd = try container.decodeIfPresent(Double.self, forKey: .odometerEnd)
        switch (distance, odometerEnd) {
        case (let metres?, nil): extent = .distance(metres)
        case (nil, let kilometres?): extent = .odometerEnd(kilometres * 1000)
        case (nil, nil): extent = nil
        case (.some, .some):
            throw DecodingError.dataCorruptedError(forKey: .odometerEnd, in: container,
                                                   debugDescription: "give distance_m or odometer_end, not both")
        }
        kind = try container.decodeIfPresent(TripKind.self, forKey: .kind)
        purpose = try container.decodeIfPresent(String.self, forKey: .purpose)
        customer = try container.decodeIfPresent(String.self, forKey: .customer)
        destination = try container.decodeIfPresent(String.self, forKey: .destination)
        commute = try container.decodeIfPresent(Bool.self, forKey: .commute) ?? false
        detour = try container.decodeIfPresent(String.self, forKey: .detour)
        regular = try container.decodeIfPresent(String.self, forKey: .regular)
        from = try container.decodeIfPresent(String.self, forKey: .from)
        to = try container.decodeIfPresent(String.self, forKey: .to)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encodeIfPresent(startSecond, forKey: .startSecond)
        try container.encodeIfPresent(endSecond, forKey: .endSecond)
        switch extent {
        case .distance(let metres): try container.encode(metres, forKey: .distance)
        case .odometerEnd(let metres): try container.encode(metres / 1000, forKey: .odometerEnd)
        case nil: break
        }
        try container.encodeIfPresent(kind, forKey: .kind)
        try container.encodeIfPresent(purpose, forKey: .purpose)
        try container.encodeIfPresent(customer, forKey: .customer)
        try container.encodeIfPresent(destination, forKey: .destination)
        if commute { try container.encode(commute, forKey: .commute) }
        try container.encodeIfPresent(detour, forKey: .detour)
        try container.encodeIfPresent(regular, forKey: .regular)
        try container.encodeIfPresent(from, forKey: .from)
        try container.encodeIfPresent(to, forKey: .to)
        try container.encodeIfPresent(reason, forKey: .reason)
    }
}
