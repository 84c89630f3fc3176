/// A spot where the car parked again and again and that no named place holds yet: offered by `place suggest` to be
/// named.
public struct PlaceSuggestion: Sendable, Hashable, Codable {
    /// Its number in the list (1 the busiest), for `trackctl place add NAME --suggestion N`.
    public var number: Int
    /// The mean of the positions the car parked at there.
    public var position: Coordinate
    /// How many times the car parked there.
    public var visits: Int
    /// The largest distance of a parking there from `position`, metres.
    public var spread: Double
    /// The radius a place there would want: the spread with a margin, at least the default radius, metres.
    public var radius: Double
    /// The trips that ended and started there.
    public var tripsEndingHere: [TripID]
    public var tripsStartingHere: [TripID]
    /// The last time the car arrived or left there.
    public var lastVisit: UTCTime?

    /// Parkings that make a spot worth a name, unless told otherwise.
    public static let defaultMinimumVisits = 3

    /// The suggestions among trips: their stays (`ParkingStays`, a trip's end and the next one's start within
    /// `radius` are one), clustered (`ParkingClustering`), those with at least `minimumVisits` parkings whose centre
    /// no named place holds, busiest first.
    public static func suggestions(trips: [TripEndpoints], places: [Place], radius: Double = Place.defaultRadius,
                                   minimumVisits: Int = defaultMinimumVisits) -> [PlaceSuggestion] {
        let stays = ParkingStays.stays(of: trips, sameSpot: radius)
        let clusters = ParkingClustering.clusters(of: stays, radius: radius)
        var suggestions: [PlaceSuggestion] = []
        for cluster in clusters where cluster.visits >= max(1, minimumVisits) {
            guard Place.containing(cluster.center, among: places) == nil else { continue }
            let margin = (cluster.spread * 1.25).rounded(.up)
            suggestions.append(PlaceSuggestion(
                number: suggestions.count + 1, position: cluster.center, visits: cluster.visits, spread: cluster.spread,
                radius: min(Place.radii.upperBound, max(radius, margin)), tripsEndingHere: cluster.tripsEndingHere,
                tripsStartingHere: cluster.tripsStartingHere, lastVisit: cluster.stays.compactMap(\.time).max()))
        }
        return suggestions
    }

    enum CodingKeys: String, CodingKey {
        case number, position, visits
        case spread = "spread_m"
        case radius = "radius_m"
        case tripsEndingHere = "trips_ending_here"
        case tripsStartingHere = "trips_starting_here"
        case lastVisit = "last_visit"
    }
}

/// `place.suggest`: how many parkings make a spot worth a name, and how far apart parkings at one spot may lie.
public struct PlaceSuggestParams: Sendable, Codable, Hashable {
    public var minimumVisits: Int?
    public var radius: Double?

    public init(minimumVisits: Int? = nil, radius: Double? = nil) {
        self.minimumVisits = minimumVisits
        self.radius = radius
    }

    enum CodingKeys: String, CodingKey {
        case minimumVisits = "min_visits"
        case radius = "radius_m"
    }
}
