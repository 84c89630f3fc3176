
/// What an edit changes on a trip; `nil` leaves a field as it is, an empty string clears a text field.
public struct TripChanges: Sendable, Hashable, Codable {
    public var kind: TripKind?
    public var purpose: String?
    public var customer: String?
    public var destination: String?

    public init(kind: TripKind? = nil, purpose: String? = nil, customer: String? = nil, destination: String? = nil) {
        self.kind = kind
        self.purpose = purpose
        self.customer = customer
        self.destination = destination
    }

    /// Whether the edit asks for anything.
    public var isEmpty: Bool { kind == nil && purpose == nil && customer == nil && destination == nil }
}
