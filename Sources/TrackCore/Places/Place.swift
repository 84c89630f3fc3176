/// A place the driver named: where trips start and end ("Home", "Example Ltd"), with what a trip there usually is.
/// A trip whose averaged start or end position lies within `radius` of `position` starts or ends there.
public struct Place: Sendable, Hashable, Codable, Identifiable {
    public var id: PlaceID
    /// The name reports print ("Example Ltd"); unique in the log, compared without case.
    public var name: String
    /// Where the car parks there (the mean of a stop, or coordinates given).
    public var position: Coordinate
    /// How far from `position` a trip's end still counts as this place, metres.
    public var radius: Double
    /// The postal address, as reports print it.
    public var address: String?
    /// The customer visited there: filled into a business trip that ends there and has none.
    public var customer: String?
    /// The purpose of a business trip that ends there and has none.
    public var purpose: String?
    /// The kind an unclassified trip that ends there takes.
    public var kind: TripKind?

    /// The radius a place gets unless told otherwise, metres: a car park, not a street.
    public static let defaultRadius = 50.0
    /// Radii a place may have, metres.
    public static let radii: ClosedRange<Double> = 10...5000

    public init(id: PlaceID, name: String, position: Coordinate, radius: Double = Place.defaultRadius,
                address: String? = nil, customer: String? = nil, purpose: String? = nil, kind: TripKind? = nil) {
        self.id = id
        self.name = name
        self.position = position
        self.radius = radius
        self.address = address
        self.customer = customer
        self.purpose = purpose
        self.kind = kind
    }

    /// What a trip keeps of this place: its number, name and address as they are now.
    public var tripPlace: TripPlace { TripPlace(id: id, name: name, address: address) }

    /// Whether `coordinate` lies within the place's radius.
    public func holds(_ coordinate: Coordinate) -> Bool {
        Geodesic.distance(from: position, to: coordinate) <= radius
    }

    /// The place whose radius holds `coordinate`; where radii overlap, the most specific one: the smallest radius
    /// (a car park inside a campus is the car park), then the nearest centre, then the lower number. `nil` when none
    /// does.
    public static func containing(_ coordinate: Coordinate, among places: some Sequence<Place>) -> Place? {
        var best: (place: Place, distance: Double)?
        for place in places {
            let distance = Geodesic.distance(from: place.position, to: coordinate)
            guard distance <= place.radius else { continue }
            if let current = best {
                let key = (current.place.radius, current.distance, current.place.id.rawValue)
                guard (place.radius, distance, place.id.rawValue) < key else { continue }
            }
            best = (place, distance)
        }
        return best?.place
    }

    /// The key a name is looked up by: lower case, every run of other characters than letters and digits one
    /// `-` ("Example Ltd." → `example-ltd`), so that `--to example-ltd` finds "Example Ltd".
    public static func key(_ name: String) -> String {
        var key = ""
        var pendingDash = false
        for character in name.lowercased() {
            if character.isLetter || character.isNumber {
                if pendingDash && !key.isEmpty { key.append("-") }
                pendingDash = false
                key.append(character)
            } else {
                pendingDash = true
            }
        }
        return key
    }

    enum CodingKeys: String, CodingKey {
        case id, name, position, radius = "radius_m", address, customer, purpose, kind
    }
}
