/// Where the car stood between trips, from the trips' ends: the raw material of learned places.
public enum ParkingStays {
    /// The stays between trips. Trips are taken in order of start time (then number; a trip without a start time
    /// first). Trip i's end and trip i+1's start make ONE stay when both positions are known and lie within
    /// `sameSpot` metres of each other: the car stood there from one trip to the next, at the mean of the two
    /// positions (taken on the local plane, `PositionMean`). Otherwise each end whose position is known is a stay of
    /// its own: the car was moved while the logger was off (or the ends were measured far apart). The first trip's
    /// start and the last trip's end always are. An end without a position contributes nothing; a `sameSpot` that is
    /// negative or NaN joins no ends.
    public static func stays(of trips: [TripEndpoints], sameSpot: Double) -> [ParkingStay] {
        let ordered = trips.sorted { a, b in
            if a.start != b.start {
                guard let first = a.start else { return true }
                guard let second = b.start else { return false }
                return first < second
            }
            return a.id < b.id
        }
        var stays: [ParkingStay] = []
        // The end of the trip before the one at hand, waiting to be joined with that trip's start.
        var arrival: (trip: TripEndpoints, position: Coordinate)?
        for trip in ordered {
            if let departure = trip.startPosition {
                if let previous = arrival, Geodesic.distance(from: previous.position, to: departure) <= sameSpot {
                    var mean = PositionMean(previous.position)
                    mean.include(departure)
                    stays.append(ParkingStay(position: mean.center, time: previous.trip.end ?? trip.start,
                                             arrivedBy: previous.trip.id, leftBy: trip.id))
                } else {
                    if let previous = arrival { stays.append(arrived(previous)) }
                    stays.append(ParkingStay(position: departure, time: trip.start, leftBy: trip.id))
                }
            } else if let previous = arrival {
                stays.append(arrived(previous))
            }
            arrival = trip.endPosition.map { (trip, $0) }
        }
        if let last = arrival { stays.append(arrived(last)) }
        return stays
    }

    /// A stay of a trip's end alone.
    private static func arrived(_ end: (trip: TripEndpoints, position: Coordinate)) -> ParkingStay {
        ParkingStay(position: end.position, time: end.trip.end, arrivedBy: end.trip.id)
    }
}
