/// A template for a trip made again and again (the office to a customer): its distance, kind and purpose.
public struct RegularTrip: Sendable, Hashable, Codable {
    /// The name the driver uses for it (`office-to-harbour`).
    public var name: String
    /// Metres.
    public var distance: Double
    public var kind: TripKind
    public var purpose: String?
    public var customer: String?
    public var destination: String?
    /// The named places it goes from and to (names, as given), which the trips made from it get.
    public var from: String?
    public var to: String?

    public init(name: String, distance: Double, kind: TripKind, purpose: String? = nil, customer: String? = nil,
                destination: String? = nil, from: String? = nil, to: String? = nil) {
        self.from = from
        self.to = to
        self.name = name
        self.distance = distance
        self.kind = kind
        self.purpose = purpose
        self.customer = customer
        self.destination = destination
    }

    enum CodingKeys: String, CodingKey {
        case name
        case distance = "distance_m"
        case kind, purpose, customer, destination, from, to
    }
}
