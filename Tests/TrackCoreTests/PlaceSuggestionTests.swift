import Testing
@testable import TrackCore

struct PlaceSuggestionTests {
    static let depot = Coordinate(latitude: 59.437, longitude: 24.7536)
    static let start = UTCTime(iso8601: "2026-11-02T07:00:00Z")!

    /// Day `day`'s trip: from `from` to `to`, each end a few metres off as measured.
    static func trip(_ day: Int, from: Coordinate, to: Coordinate, jitter: Double = 3) -> TripEndpoints {
        let begin = start.adding(seconds: Double(day) * 86_400)
        return TripEndpoints(id: TripID(Int64(day + 1)), start: begin, end: begin.adding(seconds: 1800),
                             startPosition: Geodesic.point(east: jitter * Double(day % 3 - 1), north: jitter, from: from),
                             endPosition: Geodesic.point(east: -jitter, north: jitter * Double(day % 2), from: to))
    }

    static func somewhere(_ index: Int) -> Coordinate {
        Geodesic.point(east: 1000 * Double(index + 1), north: 700 * Double(index % 4), from: depot)
    }

    @Test func offersTheSpotParkedAtThreeTimesOrMoreAndNoneParkedAtOnce() {
        // Every day the car sets off from the depot and ends somewhere new (it comes back while the logger is off).
        let trips = (0..<5).map { Self.trip($0, from: Self.depot, to: Self.somewhere($0)) }
        let suggestions = PlaceSuggestion.suggestions(trips: trips, places: [])
        #expect(suggestions.count == 1)
        let depot = suggestions.first
        #expect(depot?.number == 1)
        #expect(depot?.visits == 5)
        #expect(depot?.tripsStartingHere == [1, 2, 3, 4, 5])
        #expect(depot.map { Geodesic.distance(from: $0.position, to: Self.depot) < 4 } == true, "3 m north, as measured")
        #expect(depot.map { $0.radius >= Place.defaultRadius && $0.radius >= $0.spread } == true)
        #expect(depot?.lastVisit == Self.start.adding(seconds: 4 * 86_400))
    }

    @Test func aTripsEndAndTheNextTripsStartAtOneSpotAreOneParking() {
        // Out to the customer and back, three times: the customer's yard is three parkings, home four.
        let customer = Self.somewhere(2)
        let trips = (0..<6).map { day in
            day.isMultiple(of: 2) ? Self.trip(day, from: Self.depot, to: customer) : Self.trip(day, from: customer, to: Self.depot)
        }
        let suggestions = PlaceSuggestion.suggestions(trips: trips, places: [])
        #expect(suggestions.map(\.visits) == [4, 3])
        #expect(suggestions.last?.tripsEndingHere == [1, 3, 5])
    }

    @Test func aSpotANamedPlaceHoldsIsNotOfferedAgainAndFewerVisitsCanBeAskedFor() {
        let trips = (0..<4).map { Self.trip($0, from: Self.depot, to: Self.somewhere(0), jitter: 2) }
        let named = Place(id: 1, name: "Depot", position: Self.depot)
        let withDepot = PlaceSuggestion.suggestions(trips: trips, places: [named])
        #expect(withDepot.allSatisfy { Geodesic.distance(from: $0.position, to: Self.depot) > 100 })
        #expect(withDepot.map(\.visits) == [4], "the other end, four times the same spot")
        #expect(PlaceSuggestion.suggestions(trips: trips, places: [named], minimumVisits: 5).isEmpty)
    }
}
