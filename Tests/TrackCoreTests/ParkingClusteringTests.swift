import TestSupport
import Testing
import TrackCore

struct ParkingClusteringTests {
    static let origin = Coordinate(latitude: 59.437, longitude: 24.7536)

    // MARK: Properties, over random stays

    @Test func theOrderOfTheStaysDoesNotChangeTheClusters() {
        for seed in UInt64(0)..<200 {
            let (stays, radius) = Self.randomStays(seed: seed)
            let clusters = ParkingClustering.clusters(of: stays, radius: radius)
            // Compared as a whole; a failure names the seed rather than printing hundreds of stays.
            let sameReversed = ParkingClustering.clusters(of: stays.reversed(), radius: radius) == clusters
            #expect(sameReversed, "seed \(seed), reversed")
            var random = SplitMix64(seed: seed ^ 0xA5A5)
            for permutation in 0..<3 {
                let same = ParkingClustering.clusters(of: Self.shuffled(stays, &random), radius: radius) == clusters
                #expect(same, "seed \(seed), permutation \(permutation)")
            }
        }
    }

    @Test func noClusterHoldsTwoStaysFurtherApartThanTwiceTheRadius() {
        for seed in UInt64(0)..<200 {
            let (stays, radius) = Self.randomStays(seed: seed)
            for cluster in ParkingClustering.clusters(of: stays, radius: radius) {
                for (index, first) in cluster.stays.enumerated() {
                    for second in cluster.stays[(index + 1)...] {
                        // A micrometre for the rounding of Vincenty's formula at the very boundary.
                        let distance = Geodesic.distance(from: first.position, to: second.position)
                        #expect(distance <= 2 * radius + 1e-6, "seed \(seed): \(distance) m apart in a \(radius) m cluster")
                    }
                }
            }
        }
    }

    @Test func everyClusterHasALeaderWithinTheRadiusOfAllItsStays() {
        for seed in UInt64(0)..<200 {
            let (stays, radius) = Self.randomStays(seed: seed)
            for cluster in ParkingClustering.clusters(of: stays, radius: radius) {
                let leader = cluster.stays.first { leader in
                    cluster.stays.allSatisfy { Geodesic.distance(from: leader.position, to: $0.position) <= radius }
                }
                #expect(leader != nil, "seed \(seed): a cluster of \(cluster.visits) without a leader")
            }
        }
    }

    @Test func everyStayIsInExactlyOneCluster() {
        for seed in UInt64(0)..<200 {
            let (stays, radius) = Self.randomStays(seed: seed)
            let clusters = ParkingClustering.clusters(of: stays, radius: radius)
            var given: [ParkingStay: Int] = [:]
            for stay in stays { given[stay, default: 0] += 1 }
            var clustered: [ParkingStay: Int] = [:]
            for stay in clusters.flatMap(\.stays) { clustered[stay, default: 0] += 1 }
            #expect(clustered == given, "seed \(seed)")
            #expect(clusters.allSatisfy { !$0.stays.isEmpty }, "seed \(seed)")
        }
    }

    // MARK: Spots

    @Test func fiveVisitsAtOneSpotMakeOneClusterAndSinglesStayAlone() throws {
        let radius = 30.0
        let spot = Self.stays(at: [(0, 0), (2, -1), (-3, 2), (1, 4), (-2, -3)], from: Self.origin, firstTrip: 1)
        let singles = Self.stays(at: [(4 * radius, 0), (0, -5 * radius), (-3 * radius, 3 * radius)], from: Self.origin,
                                 firstTrip: 10)
        let clusters = ParkingClustering.clusters(of: singles + spot, radius: radius)
        try #require(clusters.count == 4)
        #expect(clusters[0].visits == 5)
        #expect(Set(clusters[0].stays) == Set(spot))
        #expect(clusters.dropFirst().allSatisfy { $0.visits == 1 })
        #expect(Set(clusters.dropFirst().flatMap(\.stays)) == Set(singles))
    }

    @Test func twoSpotsThreeRadiiApartEachVisitedFourTimesAreTwoClusters() throws {
        let radius = 40.0
        let noise = [(0.0, 0.0), (3.0, 1.0), (-2.0, 2.0), (1.0, -3.0)]
        let west = Self.stays(at: noise, from: Self.origin, firstTrip: 1)
        let east = Self.stays(at: noise, from: Geodesic.point(east: 3 * radius, north: 0, from: Self.origin), firstTrip: 20)
        let clusters = ParkingClustering.clusters(of: west + east, radius: radius)
        try #require(clusters.count == 2)
        #expect(clusters.map(\.visits) == [4, 4])
        #expect(Set(clusters.map { Set($0.stays) }) == [Set(west), Set(east)])
    }

    @Test func aSpotVisitedTwoThousandTimesIsOneCluster() {
        var random = SplitMix64(seed: 11)
        let offsets = (0..<2_000).map { _ in Self.pointInDisc(8, &random) }
        let home = Self.stays(at: offsets, from: Self.origin, firstTrip: 1)
        let clusters = ParkingClustering.clusters(of: home, radius: 25)
        #expect(clusters.map(\.visits) == [2_000])
    }

    @Test func staysFarFromTheFirstOnesLatitudeStillFindEachOther() throws {
        // The first stay (in the canonical order) is at the equator; at 75° a degree of longitude is a quarter as
        // long, and five stays 7 m apart in a row, 28 m end to end, make one spot of radius 30.
        let far = Coordinate(latitude: 75.2, longitude: 24.7536)
        var stays = [ParkingStay(position: Coordinate(latitude: 0, longitude: 24.7536))]
        stays += Self.stays(at: [(-14, 0), (-7, 0), (0, 0), (7, 0), (14, 0)], from: far, firstTrip: 1)
        let clusters = ParkingClustering.clusters(of: stays, radius: 30)
        #expect(clusters.map(\.visits) == [5, 1])
    }

    @Test func aStayJustInsideTheRadiusJoinsItsLeaderAndOneJustOutsideDoesNot() throws {
        for latitude in [0.0, -33.87, 45.5, 59.437, 78.2, 84.0] {
            for radius in [50.0, 20_000.0] {
                let leader = Coordinate(latitude: latitude, longitude: 24.7536)
                // Scaled to lie a millimetre inside and outside the radius on the ellipsoid.
                let inside = Self.point(at: radius - 0.001, east: 1, from: leader)
                let outside = Self.point(at: radius + 0.001, east: -1, from: leader)
                try #require(Geodesic.distance(from: leader, to: inside) <= radius)
                try #require(Geodesic.distance(from: leader, to: outside) > radius)
                // The leader and the stay inside have a neighbour each; the leader, earlier, leads.
                let stays = [leader, inside, outside].enumerated().map { index, position in
                    ParkingStay(position: position, time: UTCTime(nanosecondsSinceEpoch: Int64(index)), arrivedBy: TripID(Int64(index)))
                }
                let clusters = ParkingClustering.clusters(of: stays, radius: radius)
                try #require(clusters.count == 2, "latitude \(latitude), radius \(radius)")
                #expect(clusters[0].stays.map(\.position) == [leader, inside], "latitude \(latitude), radius \(radius)")
                #expect(clusters[1].stays.map(\.position) == [outside], "latitude \(latitude), radius \(radius)")
            }
        }
    }

    // MARK: What a cluster tells

    @Test func tripsEndingAndStartingHereListTheTripsOfItsStaysAscending() throws {
        let home = Self.origin
        let work = Geodesic.point(east: 4_000, north: 1_000, from: home)
        let shop = Geodesic.point(east: -800, north: 2_000, from: home)
        func at(_ hour: Int) -> UTCTime { UTCTime(secondsSinceEpoch: 1_773_000_000 + Double(hour) * 3600) }
        // Numbered out of time order, as trips added by hand are.
        let trips = [
            TripEndpoints(id: 7, start: at(8), end: at(9), startPosition: home, endPosition: work),
            TripEndpoints(id: 2, start: at(17), end: at(18), startPosition: work, endPosition: home),
            TripEndpoints(id: 9, start: at(19), end: at(20), startPosition: Geodesic.point(east: 3, north: 2, from: home),
                          endPosition: shop),
            TripEndpoints(id: 4, start: at(21), end: at(22), startPosition: shop, endPosition: home),
            TripEndpoints(id: 1, start: at(32), end: at(33), startPosition: home, endPosition: work),
        ]
        let clusters = ParkingClustering.clusters(of: ParkingStays.stays(of: trips, sameSpot: 25), radius: 50)
        let atHome = try #require(clusters.first { Geodesic.distance(from: $0.center, to: home) < 10 })
        #expect(atHome.tripsEndingHere == [2, 4])
        #expect(atHome.tripsStartingHere == [1, 7, 9])
        #expect(atHome.visits == 3)
        let atWork = try #require(clusters.first { Geodesic.distance(from: $0.center, to: work) < 10 })
        #expect(atWork.tripsEndingHere == [1, 7])
        #expect(atWork.tripsStartingHere == [2])
    }

    @Test func theCenterIsTheMeanOfItsStaysAndTheSpreadTheFarthestOfThem() throws {
        let stays = Self.stays(at: [(0, 0), (10, 0), (0, 10), (-4, -4)], from: Self.origin, firstTrip: 1)
        let cluster = try #require(ParkingClustering.clusters(of: stays, radius: 30).first)
        #expect(cluster.visits == 4)
        let center = Geodesic.offset(of: cluster.center, from: Self.origin)
        #expect(abs(center.east - 1.5) < 0.001 && abs(center.north - 1.5) < 0.001)
        // (10, 0) and (0, 10) are farthest from (1.5, 1.5).
        #expect(abs(cluster.spread - (8.5 * 8.5 + 1.5 * 1.5).squareRoot()) < 0.01)
    }

    @Test func theBusiestSpotComesFirstThenTheSouthernmost() {
        let north = Geodesic.point(east: 0, north: 2_000, from: Self.origin)
        let south = Geodesic.point(east: 500, north: -2_000, from: Self.origin)
        let stays = Self.stays(at: [(0, 0), (1, 1), (-1, 2)], from: north, firstTrip: 1)
            + Self.stays(at: [(0, 0), (1, 1), (-1, 2)], from: south, firstTrip: 10)
            + Self.stays(at: [(0, 0), (1, 1), (-1, 2), (2, 0), (0, -2)], from: Self.origin, firstTrip: 20)
        let clusters = ParkingClustering.clusters(of: stays, radius: 30)
        #expect(clusters.map(\.visits) == [5, 3, 3])
        #expect(clusters.map { $0.stays[0].position } == [Self.origin, south, north])
    }

    @Test func aRadiusThatIsNotAPositiveNumberLeavesEveryStayAlone() {
        let stays = Self.stays(at: [(0, 0), (0, 0), (1, 0)], from: Self.origin, firstTrip: 1)
        for radius in [0.0, -5, .nan, .infinity] {
            let clusters = ParkingClustering.clusters(of: stays, radius: radius)
            #expect(clusters.map(\.visits) == [1, 1, 1], "radius \(radius)")
            #expect(Set(clusters.flatMap(\.stays)) == Set(stays), "radius \(radius)")
        }
        #expect(ParkingClustering.clusters(of: [], radius: 30).isEmpty)
    }

    // MARK: Helpers

    /// Stays at `offsets` (metres east, north of `origin`), arriving by trips numbered from `firstTrip`, an hour apart.
    static func stays(at offsets: [(Double, Double)], from origin: Coordinate, firstTrip: Int64) -> [ParkingStay] {
        offsets.enumerated().map { index, offset in
            let trip = firstTrip + Int64(index)
            return ParkingStay(position: Geodesic.point(east: offset.0, north: offset.1, from: origin),
                               time: UTCTime(secondsSinceEpoch: 1_773_000_000 + Double(trip) * 3600), arrivedBy: TripID(trip))
        }
    }

    /// The point due east (`east` 1) or west (-1) of `origin` whose distance on the ellipsoid is `distance`.
    static func point(at distance: Double, east: Double, from origin: Coordinate) -> Coordinate {
        let first = Geodesic.point(east: east * distance, north: 0, from: origin)
        let scale = distance / Geodesic.distance(from: origin, to: first)
        return Geodesic.point(east: east * distance * scale, north: 0, from: origin)
    }

    /// Stays scattered around 5 to 15 spots up to 3 km apart (some a radius or two from another spot, crowding it),
    /// each visited once or up to 25 times with 0–8 m of noise; some stays repeat exactly, some share a time or have
    /// none, some have no trips: the canonical order's ties. Then the radius: 15 to 60 m.
    static func randomStays(seed: UInt64) -> (stays: [ParkingStay], radius: Double) {
        var random = SplitMix64(seed: seed)
        let radius = 15 + 45 * unit(&random)
        let base = Coordinate(latitude: -60 + 130 * unit(&random), longitude: -180 + 360 * unit(&random))
        var spots: [Coordinate] = []
        for _ in 0..<(5 + below(11, &random)) {
            if !spots.isEmpty && below(3, &random) == 0 {
                let other = spots[below(spots.count, &random)]
                let (east, north) = pointInDisc(1, &random)
                let length = max((east * east + north * north).squareRoot(), 1e-9)
                let distance = radius * (1 + 2 * unit(&random))
                spots.append(Geodesic.point(east: east / length * distance, north: north / length * distance, from: other))
            } else {
                spots.append(Geodesic.point(east: 3_000 * unit(&random), north: 3_000 * unit(&random), from: base))
            }
        }
        var stays: [ParkingStay] = []
        for spot in spots {
            let visits = below(3, &random) == 0 ? 1 : 1 + below(25, &random)
            for _ in 0..<visits {
                if let last = stays.last, below(12, &random) == 0 {
                    stays.append(last)
                    continue
                }
                let (east, north) = pointInDisc(8, &random)
                stays.append(ParkingStay(
                    position: Geodesic.point(east: east, north: north, from: spot),
                    time: below(5, &random) == 0 ? nil : UTCTime(secondsSinceEpoch: 1_773_000_000 + Double(below(40, &random)) * 3600),
                    arrivedBy: below(4, &random) == 0 ? nil : TripID(Int64(below(30, &random))),
                    leftBy: below(4, &random) == 0 ? nil : TripID(Int64(below(30, &random)))))
            }
        }
        return (stays, radius)
    }

    static func shuffled<Element>(_ elements: [Element], _ random: inout SplitMix64) -> [Element] {
        var elements = elements
        for index in elements.indices.reversed() where index > 0 {
            elements.swapAt(index, below(index + 1, &random))
        }
        return elements
    }

    /// A point uniformly in a disc of `radius`, metres east and north of its centre.
    static func pointInDisc(_ radius: Double, _ random: inout SplitMix64) -> (Double, Double) {
        while true {
            let east = 2 * unit(&random) - 1
            let north = 2 * unit(&random) - 1
            if east * east + north * north <= 1 { return (east * radius, north * radius) }
        }
    }

    static func unit(_ random: inout SplitMix64) -> Double {
        Double(random.next() >> 11) / Double(1 << 53)
    }

    static func below(_ bound: Int, _ random: inout SplitMix64) -> Int {
        Int(random.next() % UInt64(bound))
    }
}
