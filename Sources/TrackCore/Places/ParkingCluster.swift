/// A spot where the car parked again and again: a group of stays that `ParkingClustering` found together.
public struct ParkingCluster: Sendable, Hashable {
    /// The mean of its stays' positions.
    public var center: Coordinate
    /// Its stays, in the canonical order (time, then arrivedBy, then leftBy, then latitude, longitude).
    public var stays: [ParkingStay]
    /// How many times the car parked there (one per stay).
    public var visits: Int { stays.count }
    /// The trips that ended there (`arrivedBy` of its stays), ascending.
    public var tripsEndingHere: [TripID]
    /// The trips that started there (`leftBy` of its stays), ascending.
    public var tripsStartingHere: [TripID]
    /// The largest distance of a stay from `center`, metres.
    public var spread: Double

    /// The cluster of `stays` (at least one; in any order): their mean, their trips, how far they scatter.
    public init(stays: [ParkingStay]) {
        precondition(!stays.isEmpty, "a parking cluster has at least one stay")
        let ordered = stays.sorted(by: ParkingStay.canonicallyPrecedes)
        // The mean around the first stay in the canonical order: the same stays give the same centre bit for bit.
        let center = PositionMean(of: ordered.map(\.position))!.center
        self.center = center
        self.stays = ordered
        tripsEndingHere = ordered.compactMap(\.arrivedBy).sorted()
        tripsStartingHere = ordered.compactMap(\.leftBy).sorted()
        spread = ordered.map { Geodesic.distance(from: center, to: $0.position) }.max() ?? 0
    }
}
