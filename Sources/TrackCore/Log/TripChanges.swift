
/// What an edit changes on a trip; `nil` leaves a field as it is, an empty string clears a text field.
public struct TripChanges: Sendable, Hashable, Codable {
    public var kind: TripKind?
    public var purpose: String?
    public var customer: String?
    public var destination: String?
    /// The named place the trip started or ended at (a place's number, name or key); an empty text clears it.
    public var startPlace: String?
    public var endPlace: String?

    public init(kind: TripKind? = nil, purpose: String? = nil, customer: String? = nil, destination: String? = nil,
                startPlace: String? = nil, endPlace: String? = nil) {
        self.kind = kind
        self.purpose = purpose
        self.customer = customer
        self.destination = destination
        self.startPlace = startPlace
        self.endPlace = endPlace
    }

    /// Whether the edit asks for anything.
    public var isEmpty: Bool {
        kind == nil && purpose == nil && customer == nil && destination == nil && startPlace == nil && endPlace == nil
    }

    enum CodingKeys: String, CodingKey {
        case kind, purpose, customer, destination
        case startPlace = "start_place"
        case endPlace = "end_place"
    }
}
