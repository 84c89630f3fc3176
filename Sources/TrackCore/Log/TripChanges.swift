
/// What an edit changes on a trip; `nil` leaves a field as it is, an empty string clears a text field.
public struct TripChanges: Sendable, Hashable, Codable {
    public var kind: TripKind?
    public var purpose: String?
    public var customer: String?
    public var destination: String?
    /// `true`: a private trip between home and work (the kind becomes private); `false`: not one.
    public var commute: Bool?
    /// The detour and why; an empty text clears it.
    public var detour: String?
    /// The named place the trip started or ended at (a place's number, name or key); an empty text clears it.
    public var startPlace: String?
    public var endPlace: String?

    public init(kind: TripKind? = nil, purpose: String? = nil, customer: String? = nil, destination: String? = nil,
                startPlace: String? = nil, endPlace: String? = nil, commute: Bool? = nil, detour: String? = nil) {
        self.commute = commute
        self.detour = detour
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
            && commute == nil && detour == nil
    }

    /// Whether the edit makes the trip private: by its kind, or as a commute (which is private).
    public var makesPrivate: Bool {
        kind == .private || commute == true
    }

    enum CodingKeys: String, CodingKey {
        case kind, purpose, customer, destination, commute, detour
        case startPlace = "start_place"
        case endPlace = "end_place"
    }
}
