import Foundation
import TestSupport
import Testing
import TrackCore
@testable import TrackStore

@Suite("Named places: kept with the chain and the history, given to the trips that start and end there")
struct PlacesTests {
    static let home = Coordinate(latitude: 59.437, longitude: 24.7536)
    /// 6 km east of home: where `recordTrip`'s 600 s at 10 m/s end.
    static let office = Geodesic.point(east: 6000, north: 0, from: home)
    static let context = TestContext.at("2026-11-20T07:00:00Z")

    static func place(_ name: String, at position: Coordinate, address: String? = nil, customer: String? = nil,
                      purpose: String? = nil, kind: TripKind? = nil, radius: Double = 50) -> Place {
        Place(id: 0, name: name, position: position, radius: radius, address: address, customer: customer,
              purpose: purpose, kind: kind)
    }

    @Test func aTripClosedInsideTwoPlacesStartsAndEndsThereWithTheirAddresses() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await log.addPlace(Self.place("Home", at: Geodesic.point(east: 10, north: -5, from: Self.home),
                                              address: "Pärnu mnt 10, 10148 Tallinn"), reason: nil, context: Self.context)
        _ = try await log.addPlace(Self.place("Example Ltd", at: Geodesic.point(east: -20, north: 0, from: Self.office),
                                              address: "Tartu mnt 1, Tallinn", customer: "Example Ltd"),
                                   reason: nil, context: Self.context)
        let trip = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z", end: Self.office)
        #expect(trip.startPlace?.name == "Home")
        #expect(trip.startPlace?.address == "Pärnu mnt 10, 10148 Tallinn")
        #expect(trip.endPlace?.name == "Example Ltd")
        #expect(trip.endPlace?.address == "Tartu mnt 1, Tallinn")
        #expect(trip.endPlace?.id == 2)
        let stored = try await log.trip(trip.id)
        #expect(stored == trip, "the row keeps what the close answered")
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
    }

    @Test func aTripEndingOutsideEveryRadiusKeepsItsCoordinatesOnly() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await log.addPlace(Self.place("Example Ltd", at: Geodesic.point(east: -60, north: 0, from: Self.office)),
                                   reason: nil, context: Self.context)
        let trip = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z", end: Self.office)
        #expect(trip.endPlace == nil, "60 m off a place of 50 m")
        #expect(trip.startPlace == nil)
        #expect(trip.endPosition == Self.office)
    }

    @Test func overlappingPlacesGiveTheSmallestThatHoldsThePosition() {
        let near = Place(id: 1, name: "Car park", position: Geodesic.point(east: 30, north: 0, from: Self.home), radius: 50)
        let wide = Place(id: 2, name: "Campus", position: Geodesic.point(east: 100, north: 0, from: Self.home), radius: 500)
        #expect(Place.containing(Self.home, among: [near, wide])?.id == 1, "the car park inside the campus")
        #expect(Place.containing(Geodesic.point(east: 200, north: 0, from: Self.home), among: [near, wide])?.id == 2)
        #expect(Place.containing(Geodesic.point(east: 700, north: 0, from: Self.home), among: [near, wide]) == nil)
    }

    @Test func namingAPlaceGivesItToThePastTripsThatStartedOrEndedThereEachInTheHistory() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let first = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z", end: Self.office)
        let second = try await recordTrip(in: log, start: "2026-11-20T12:00:00Z", end: Self.office)
        let elsewhere = try await recordTrip(in: log, start: "2026-11-20T16:00:00Z",
                                             origin: Geodesic.point(east: 0, north: 3000, from: Self.home))
        #expect([first, second, elsewhere].allSatisfy { $0.startPlace == nil && $0.endPlace == nil })

        let update = try await log.addPlace(Self.place("Example Ltd", at: Self.office, address: "Tartu mnt 1"),
                                            reason: "the customer's yard", context: TestContext.at("2026-11-21T09:00:00Z"))
        #expect(update.endsNamed == [first.id, second.id])
        #expect(update.startsNamed.isEmpty)
        let home = try await log.addPlace(Self.place("Home", at: Self.home), reason: nil, context: Self.context)
        #expect(home.startsNamed == [first.id, second.id])
        #expect(home.endsNamed.isEmpty)

        let trips = try await log.trips(dates: nil)
        #expect(trips.first { $0.id == first.id }?.endPlace?.name == "Example Ltd")
        #expect(trips.first { $0.id == first.id }?.startPlace?.name == "Home")
        #expect(trips.first { $0.id == elsewhere.id }?.startPlace == nil)
        let history = try await log.tripDetail(first.id).revisions
        #expect(history.map(\.field) == ["end_place", "start_place"])
        #expect(history.first?.newValue == "Example Ltd, Tartu mnt 1")
        #expect(history.first?.reason == "place 'Example Ltd' named")
        #expect(history.first?.oldValue == nil)
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
    }

    @Test func anEditedPlaceLeavesTheTripsWithWhatTheyGotAndARemovedOneLeavesThemItsName() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        _ = try await log.addPlace(Self.place("Exampel Ltd", at: Self.office), reason: nil, context: Self.context)
        let trip = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z", end: Self.office)
        let renamed = try await log.editPlace("exampel-ltd", PlaceChanges(name: "Example Ltd", address: "Tartu mnt 1"),
                                              reason: "typo", context: Self.context)
        #expect(renamed.place.name == "Example Ltd" && renamed.place.address == "Tartu mnt 1")
        #expect(renamed.endsNamed.isEmpty, "the trip has its place already")
        #expect(try await log.trip(trip.id).endPlace?.name == "Exampel Ltd", "the log is not rewritten")
        let placeHistory = try await log.revisions().filter { $0.subject == "place" }
        #expect(placeHistory.map(\.field) == ["Exampel Ltd", "Example Ltd: name", "Example Ltd: address"])

        let removed = try await log.removePlace("1", reason: "moved away", context: Self.context)
        #expect(removed.name == "Example Ltd")
        #expect(try await log.places().isEmpty)
        let kept = try await log.trip(trip.id)
        #expect(kept.endPlace?.name == "Exampel Ltd" && kept.endPlace?.id == nil)
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
    }

    @Test func namesAreLookedUpByNumberNameOrKeyAndAreUniqueWhateverTheCase() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await log.addPlace(Self.place("Example Ltd.", at: Self.office), reason: nil, context: Self.context)
        #expect(try await log.place("example-ltd").name == "Example Ltd.")
        #expect(try await log.place("EXAMPLE LTD.").id == 1)
        #expect(try await log.place("1").name == "Example Ltd.")
        await #expect {
            try await log.addPlace(Self.place("example  LTD", at: Self.home), reason: nil, context: Self.context)
        } throws: { ($0 as? StoreError)?.description == "a place named 'Example Ltd.' exists; choose another name or edit that one" }
        await #expect {
            try await log.place("depot")
        } throws: { ($0 as? StoreError)?.description == "there is no place 'depot'; known: Example Ltd." }
        await #expect {
            try await log.addPlace(Self.place("Depot", at: Self.home, radius: 5), reason: nil, context: Self.context)
        } throws: { ($0 as? StoreError)?.description == "the radius must be from 10 to 5000 m" }
        await #expect {
            try await log.addPlace(Self.place(" -- ", at: Self.home), reason: nil, context: Self.context)
        } throws: { ($0 as? StoreError)?.description == "a place needs a name with a letter or digit in it" }
        #expect(try await log.places().count == 1)
    }

    @Test func aTripWithoutItsRouteGetsNoPlaceUnlessTheDriverNamesOne() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await log.addPlace(Self.place("Gym", at: Self.home), reason: nil, context: Self.context)
        let trip = try await recordTrip(in: log, kind: .private, purpose: nil, start: "2026-11-20T18:00:00Z",
                                        route: .withheld)
        #expect(trip.startPlace == nil && trip.endPlace == nil)
        let edited = try await log.editTrip(trip.id, TripChanges(startPlace: "gym"), reason: "from the gym",
                                            context: Self.context)
        #expect(edited.startPlace?.name == "Gym")
        #expect(edited.startPosition == nil, "a name, not a position")
        let history = try await log.tripDetail(trip.id).revisions
        #expect(history.map(\.field) == ["start_place"] && history.first?.newValue == "Gym")
        let cleared = try await log.editTrip(trip.id, TripChanges(startPlace: ""), reason: "wrong", context: Self.context)
        #expect(cleared.startPlace == nil)
        #expect(try await log.verify().isIntact)
    }

    @Test func aTripEnteredByHandBetweenTwoPlacesTakesTheLastGPSTripsDistanceAndSaysSo() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await log.addPlace(Self.place("Home", at: Self.home), reason: nil, context: Self.context)
        _ = try await log.addPlace(Self.place("Office", at: Self.office), reason: nil, context: Self.context)
        _ = try await log.addPlace(Self.place("Depot", at: Geodesic.point(east: 0, north: 5000, from: Self.home)),
                                   reason: nil, context: Self.context)
        let out = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z", end: Self.office)
        let back = try await recordTrip(in: log, start: "2026-11-20T16:00:00Z", seconds: 650, origin: Self.office,
                                        end: Self.home)
        #expect(out.startPlace?.name == "Home" && out.endPlace?.name == "Office" && out.distance == 6000)
        #expect(back.startPlace?.name == "Office" && back.endPlace?.name == "Home" && back.distance == 6500)
        let later = TestContext.at("2026-11-21T18:00:00Z")
        let date = CivilDate(year: 2026, month: 11, day: 21)!

        let there = try await log.addTrip(ManualTrip(date: date, kind: .business, purpose: "Meeting", from: "home",
                                                     to: "office"), context: later)
        #expect(there.distance == 6000, "the trip that went that way")
        #expect(there.startPlace?.name == "Home" && there.endPlace?.name == "Office")
        let history = try await log.tripDetail(there.id).revisions
        #expect(history.first?.newValue?.hasSuffix("(the distance of GPS trip \(out.id) between the two places)") == true,
                "\(history)")
        let reverse = try await log.addTrip(ManualTrip(date: date, kind: .private, from: "Office", to: "Home"),
                                            context: later)
        #expect(reverse.distance == 6500)
        await #expect {
            try await log.addTrip(ManualTrip(date: date, kind: .private, from: "home", to: "depot"), context: later)
        } throws: { "\($0)".hasPrefix("no GPS trip from 'Home' to 'Depot' (or back) is in the log") }
        let typed = try await log.addTrip(ManualTrip(date: date, extent: .distance(7100), kind: .private, from: "home",
                                                     to: "depot"), context: later)
        #expect(typed.distance == 7100 && typed.endPlace?.name == "Depot", "a distance given wins")

        try await log.addRegularTrip(RegularTrip(name: "commute", distance: 6200, kind: .business, purpose: "Office",
                                                 from: "home", to: "OFFICE"), context: later)
        let regular = try await log.regularTrips().first
        #expect(regular?.from == "Home" && regular?.to == "Office", "kept by the names the places have")
        let fromRegular = try await log.addTrip(ManualTrip(date: date, regular: "commute"), context: later)
        #expect(fromRegular.distance == 6200 && fromRegular.startPlace?.name == "Home" && fromRegular.endPlace?.name == "Office")
        #expect(try await log.verify().isIntact)
    }

    @Test func aPlaceChangedOutsideTrackdIsCaughtAndErasingEverythingTakesThePlaces() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        _ = try await log.addPlace(Self.place("Kaseke Farm", at: Self.home, address: "Metsa tee 4, Kaseküla"),
                                   reason: nil, context: Self.context)
        _ = try await recordTrip(in: log, kind: .private, purpose: nil, start: "2016-01-04T08:00:00Z")
        _ = try sqlite3(path, "UPDATE place SET radius = 500 WHERE id = 1")
        let tampered = try await log.verify()
        #expect(tampered.problems.map(\.record) == ["place 1"], "\(tampered.problems)")
        _ = try sqlite3(path, "UPDATE place SET radius = 50 WHERE id = 1")
        #expect(try await log.verify().isIntact)

        let erasure = try await log.erase(EraseParams(target: .all, reason: "car sold"), retention: RetentionPolicy(),
                                          context: TestContext.at("2026-11-21T09:00:00Z"))
        #expect(erasure.done)
        #expect(try await log.places().isEmpty)
        for text in ["Kaseke", "Metsa tee"] {
            #expect(StoredBytes(log: path).files(containing: text).isEmpty, "\(text)")
        }
        #expect(try await log.verify().isIntact)
    }
}
