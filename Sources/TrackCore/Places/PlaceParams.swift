/// `place.add`: a place to name, at given coordinates or where the car stands (`here`: the spot of the present
/// stop, from its positions, which only the daemon knows).
public struct PlaceAddParams: Sendable, Codable, Hashable {
    public var name: String
    public var position: Coordinate?
    public var here: Bool?
    public var radius: Double?
    public var address: String?
    public var customer: String?
    public var purpose: String?
    public var kind: TripKind?
    public var reason: String?

    public init(name: String, position: Coordinate? = nil, here: Bool? = nil, radius: Double? = nil,
                address: String? = nil, customer: String? = nil, purpose: String? = nil, kind: TripKind? = nil,
                reason: String? = nil) {
        self.name = name
        self.position = position
        self.here = here
        self.radius = radius
        self.address = address
        self.customer = customer
        self.purpose = purpose
        self.kind = kind
        self.reason = reason
    }

    /// The place these describe, at `position` (its number is the log's to give).
    public func draft(at position: Coordinate) -> Place {
        Place(id: 0, name: name, position: position, radius: radius ?? Place.defaultRadius, address: address,
              customer: customer, purpose: purpose, kind: kind)
    }

    enum CodingKeys: String, CodingKey {
        case name, position, here, radius = "radius_m", address, customer, purpose, kind, reason
    }
}

/// `place.edit`: which place (number, name or key), what changes, and why.
public struct PlaceEditParams: Sendable, Codable, Hashable {
    public var place: String
    public var changes: PlaceChanges
    /// Move the place to where the car stands (instead of `changes.position`).
    public var here: Bool?
    public var reason: String?

    public init(place: String, changes: PlaceChanges, here: Bool? = nil, reason: String? = nil) {
        self.place = place
        self.changes = changes
        self.here = here
        self.reason = reason
    }
}

/// `place.remove`: which place, and why.
public struct PlaceRemoveParams: Sendable, Codable, Hashable {
    public var place: String
    public var reason: String?

    public init(place: String, reason: String? = nil) {
        self.place = place
        self.reason = reason
    }
}
