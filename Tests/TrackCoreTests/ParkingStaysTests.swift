import Testing
import TrackCore

struct ParkingStaysTests {
    static let home = Coordinate(latitude: 59.437, longitude: 24.7536)
    static let work = Geodesic.point(east: 4_200, north: 1_300, from: home)
    static let shop = Geodesic.point(east: -900, north: 2_500, from: home)

    static func time(_ hour: Int, _ minute: Int = 0) -> UTCTime {
        UTCTime(date: CivilDate(year: 2026, month: 3, day: 9)!, nanosecondOfDay: Int64(hour * 3600 + minute * 60) * UTCTime.nanosecondsPerSecond)
    }

    @Test func anArrivalAndTheNextDepartureWithinTheSameSpotAreOneStayWithBothTripsAtTheirMean() throws {
        let parked = Geodesic.point(east: 6, north: -8, from: Self.work)   // the next start, measured 10 m away
        let trips = [
            TripEndpoints(id: 1, start: Self.time(8), end: Self.time(8, 30), startPosition: Self.home, endPosition: Self.work),
            TripEndpoints(id: 2, start: Self.time(17), end: Self.time(17, 40), startPosition: parked, endPosition: Self.home),
        ]
        let stays = ParkingStays.stays(of: trips, sameSpot: 25)
        try #require(stays.count == 3)
        #expect(stays[0] == ParkingStay(position: Self.home, time: Self.time(8), arrivedBy: nil, leftBy: 1))
        #expect(stays[1].arrivedBy == 1)
        #expect(stays[1].leftBy == 2)
        #expect(stays[1].time == Self.time(8, 30))
        let mean = Geodesic.offset(of: stays[1].position, from: Self.work)
        #expect(abs(mean.east - 3) < 0.001 && abs(mean.north + 4) < 0.001)
        #expect(stays[2] == ParkingStay(position: Self.home, time: Self.time(17, 40), arrivedBy: 2, leftBy: nil))
    }

    @Test func aDepartureFarFromThePreviousArrivalMakesTwoStays() {
        // The car was moved 300 m while the logger was off: it arrived at work and left from the shop's car park.
        let moved = Geodesic.point(east: 300, north: 0, from: Self.work)
        let trips = [
            TripEndpoints(id: 1, start: Self.time(8), end: Self.time(8, 30), startPosition: Self.home, endPosition: Self.work),
            TripEndpoints(id: 2, start: Self.time(17), end: Self.time(17, 40), startPosition: moved, endPosition: Self.home),
        ]
        #expect(ParkingStays.stays(of: trips, sameSpot: 25) == [
            ParkingStay(position: Self.home, time: Self.time(8), leftBy: 1),
            ParkingStay(position: Self.work, time: Self.time(8, 30), arrivedBy: 1),
            ParkingStay(position: moved, time: Self.time(17), leftBy: 2),
            ParkingStay(position: Self.home, time: Self.time(17, 40), arrivedBy: 2),
        ])
    }

    @Test func tripsGivenOutOfOrderAreTakenInOrderOfStartTime() {
        // Trip 5 went to work in the morning, trip 3 home in the evening: the numbers' order would join trip 3's end
        // at home with trip 5's start there instead.
        let trips = [
            TripEndpoints(id: 3, start: Self.time(17), end: Self.time(17, 40), startPosition: Self.work, endPosition: Self.home),
            TripEndpoints(id: 5, start: Self.time(8), end: Self.time(8, 30), startPosition: Self.home, endPosition: Self.work),
        ]
        let stays = ParkingStays.stays(of: trips, sameSpot: 25)
        #expect(stays.map(\.arrivedBy) == [nil, 5, 3])
        #expect(stays.map(\.leftBy) == [5, 3, nil])
        #expect(stays.map(\.time) == [Self.time(8), Self.time(8, 30), Self.time(17, 40)])
    }

    @Test func tripsWithTheSameStartAreTakenInOrderOfNumber() {
        let trips = [
            TripEndpoints(id: 8, startPosition: Self.work, endPosition: Self.home),
            TripEndpoints(id: 7, startPosition: Self.home, endPosition: Self.work),
        ]
        let stays = ParkingStays.stays(of: trips, sameSpot: 25)
        #expect(stays.map(\.arrivedBy) == [nil, 7, 8])
        #expect(stays.map(\.leftBy) == [7, 8, nil])
    }

    @Test func tripsWithoutPositionsLeaveOutThatEnd() {
        let trips = [
            // No end position: its arrival is left out, and the next trip's start stands alone.
            TripEndpoints(id: 1, start: Self.time(8), end: Self.time(8, 30), startPosition: Self.home, endPosition: nil),
            TripEndpoints(id: 2, start: Self.time(9), end: Self.time(9, 20), startPosition: Self.work, endPosition: Self.shop),
            // No positions at all: trip 2's end stands alone, and this trip adds nothing.
            TripEndpoints(id: 3, start: Self.time(10), end: Self.time(10, 30)),
            TripEndpoints(id: 4, start: Self.time(11), end: Self.time(11, 15), startPosition: nil, endPosition: Self.home),
        ]
        #expect(ParkingStays.stays(of: trips, sameSpot: 25) == [
            ParkingStay(position: Self.home, time: Self.time(8), leftBy: 1),
            ParkingStay(position: Self.work, time: Self.time(9), leftBy: 2),
            ParkingStay(position: Self.shop, time: Self.time(9, 20), arrivedBy: 2),
            ParkingStay(position: Self.home, time: Self.time(11, 15), arrivedBy: 4),
        ])
    }

    @Test func aStayWhoseArrivalTimeIsUnknownTakesTheDepartureTime() throws {
        let trips = [
            TripEndpoints(id: 1, start: Self.time(8), end: nil, startPosition: Self.home, endPosition: Self.work),
            TripEndpoints(id: 2, start: Self.time(17), end: Self.time(17, 40), startPosition: Self.work, endPosition: Self.home),
        ]
        let stays = ParkingStays.stays(of: trips, sameSpot: 25)
        try #require(stays.count == 3)
        #expect(stays[1] == ParkingStay(position: Self.work, time: Self.time(17), arrivedBy: 1, leftBy: 2))
    }

    @Test func noTripsMakeNoStays() {
        #expect(ParkingStays.stays(of: [], sameSpot: 25).isEmpty)
    }
}
