/// What an edit changes on a place; `nil` leaves a field as it is, an empty text clears it, and the kind
/// `unclassified` clears the place's kind.
public struct PlaceChanges: Sendable, Hashable, Codable {
    public var name: String?
    public var position: Coordinate?
    public var radius: Double?
    public var address: String?
    public var customer: String?
    public var purpose: String?
    public var kind: TripKind?

    public init(name: String? = nil, position: Coordinate? = nil, radius: Double? = nil, address: String? = nil,
                customer: String? = nil, purpose: String? = nil, kind: TripKind? = nil) {
        self.name = name
        self.position = position
        self.radius = radius
        self.address = address
        self.customer = customer
        self.purpose = purpose
        self.kind = kind
    }

    /// Whether the edit asks for anything.
    public var isEmpty: Bool {
        name == nil && position == nil && radius == nil && address == nil && customer == nil && purpose == nil
            && kind == nil
    }

    /// `place` with the changes applied (texts trimmed; empty ones cleared).
    public func applied(to place: Place) -> Place {
        var changed = place
        if let name { changed.name = name.trimmed }
        if let position { changed.position = position }
        if let radius { changed.radius = radius }
        if let address { changed.address = address.trimmed.nilIfEmpty }
        if let customer { changed.customer = customer.trimmed.nilIfEmpty }
        if let purpose { changed.purpose = purpose.trimmed.nilIfEmpty }
        if let kind { changed.kind = kind == .unclassified ? nil : kind }
        return changed
    }

    enum CodingKeys: String, CodingKey {
        case name, position, radius = "radius_m", address, customer, purpose, kind
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
