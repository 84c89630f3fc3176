import Foundation
import TestSupport
import Testing
import TrackCore
import TrackStore
@testable import TrackService

/// Named places through the tracker: a place named where the car stands, and what a place fills in on the trips that
/// end there — against a real mileage log.
@Suite("Places in the tracker: --here, and what a place fills in on a trip that ends there")
struct PlaceFillingTests {
    private let start = UTCTime.iso("2026-11-22T08:00:00Z")
    private let origin = Coordinate(latitude: 59.437, longitude: 24.7536)
    private let context = ChangeContext(user: "driver", time: .iso("2026-11-22T07:00:00Z"), timeSource: "gps")

    /// A drive of 1.5 km eastwards from `origin`, parked a minute at each end; where it ends.
    private func drive(seed: UInt64) -> (fixes: [Fix], end: Coordinate) {
        var drive = DriveSimulator(start: start, origin: origin, seed: seed)
        drive.park(60)
        drive.drive(1500, kmh: 50)
        drive.park(60)
        return (drive.fixes, drive.position)
    }

    private func place(_ name: String, at position: Coordinate, customer: String? = nil, purpose: String? = nil,
                       kind: TripKind? = nil) -> Place {
        Place(id: 0, name: name, position: position, radius: 50, address: "\(name) street 1", customer: customer,
              purpose: purpose, kind: kind)
    }

    @Test func aBusinessTripEndingAtACustomersPlaceTakesItsCustomerAndPurposeInTheHistory() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let (fixes, end) = drive(seed: 81)
        let log = try MileageLog.open(path: path)
        _ = try await log.addPlace(place("Home", at: origin), reason: nil, context: context)
        _ = try await log.addPlace(place("Example Ltd", at: end, customer: "Example Ltd", purpose: "Delivery"),
                                   reason: nil, context: context)
        let tracker = TrackerHarness(log: log, origin: start, autoStart: .business)
        try await tracker.feedAndWait(fixes)
        tracker.setClock(to: fixes.last!.time!)
        let stopped = try await tracker.tripRequest(.stop(StopParams()))
        await tracker.finish()

        #expect(stopped.startPlace?.name == "Home" && stopped.endPlace?.name == "Example Ltd")
        #expect(stopped.customer == "Example Ltd" && stopped.purpose == "Delivery", "the stop answers with the filled trip")
        let stored = try await log.trip(stopped.id)
        #expect(stored == stopped)
        let history = try await log.tripDetail(stopped.id).revisions
        #expect(Set(history.map(\.field)) == ["customer", "purpose"])
        #expect(history.allSatisfy { $0.user == "trackd" && $0.reason == "filled from place 'Example Ltd'" })
        #expect(try await log.verify().isIntact)
    }

    @Test func aTripWithItsOwnPurposeKeepsIt() async throws {
        let folder = try TemporaryFolder()
        let (fixes, end) = drive(seed: 82)
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await log.addPlace(place("Example Ltd", at: end, customer: "Example Ltd", purpose: "Delivery"),
                                   reason: nil, context: context)
        let tracker = TrackerHarness(log: log, origin: start)
        _ = try await tracker.tripRequest(.start(StartParams(kind: .business, purpose: "Contract signing")))
        try await tracker.feedAndWait(fixes)
        tracker.setClock(to: fixes.last!.time!)
        let stopped = try await tracker.tripRequest(.stop(StopParams()))
        await tracker.finish()
        #expect(stopped.purpose == "Contract signing")
        #expect(stopped.customer == "Example Ltd", "the customer was empty")
        #expect(try await log.tripDetail(stopped.id).revisions.map(\.field) == ["customer"])
    }

    @Test func anUnclassifiedTripEndingAtAPrivatePlaceBecomesPrivateAndLosesItsRouteInPrivacyMode() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let (fixes, end) = drive(seed: 83)
        let log = try MileageLog.open(path: path)
        _ = try await log.addPlace(place("Gym", at: end, kind: .private), reason: nil, context: context)
        _ = try await log.addPlace(place("Warehouse", at: origin, kind: .business), reason: nil, context: context)
        let tracker = TrackerHarness(log: log, origin: start, autoStart: .unclassified)
        try await tracker.feedAndWait(fixes)
        tracker.setClock(to: fixes.last!.time!)
        let stopped = try await tracker.tripRequest(.stop(StopParams()))
        await tracker.finish()
        #expect(stopped.kind == .private)
        #expect(stopped.route == .erased)
        #expect(stopped.startPosition == nil && stopped.endPosition == nil)
        #expect(try await log.track(stopped.id).isEmpty)
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
        #expect(report.erasures.count == 1)
    }

    @Test func aPlaceOfBusinessWithoutAPurposeLeavesAnUnclassifiedTripOpenToClassify() async throws {
        let folder = try TemporaryFolder()
        let (fixes, end) = drive(seed: 84)
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await log.addPlace(place("Yard", at: end, customer: "Yard Ltd", kind: .business), reason: nil,
                                   context: context)
        let tracker = TrackerHarness(log: log, origin: start, autoStart: .unclassified)
        try await tracker.feedAndWait(fixes)
        tracker.setClock(to: fixes.last!.time!)
        let stopped = try await tracker.tripRequest(.stop(StopParams()))
        await tracker.finish()
        #expect(stopped.kind == .unclassified && stopped.customer == nil)
        #expect(try await log.tripDetail(stopped.id).revisions.isEmpty)
    }

    @Test func aPlaceNamedHereIsTheMeanOfTheStopNotTheLastFix() async throws {
        let folder = try TemporaryFolder()
        var parked = DriveSimulator(start: start, origin: origin, seed: 85)
        parked.receiver.sigma = 5
        parked.receiver.tau = 20
        parked.park(300)
        let fixes = parked.fixes
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let tracker = TrackerHarness(log: log, origin: start)
        try await tracker.feedAndWait(fixes)
        let answer = await tracker.request(.addPlace(PlaceAddParams(name: "Home", here: true)))
        guard case .success(.place(let update)) = answer else {
            Issue.record("\(answer)")
            await tracker.finish()
            return
        }
        let settled = EngineConfiguration().convergenceFixes
        let mean = try #require(PositionMean(of: fixes.dropFirst(settled - 1).compactMap(\.coordinate)))
        #expect(Geodesic.distance(from: update.place.position, to: mean.center) < 0.05)
        #expect(Geodesic.distance(from: update.place.position, to: parked.position)
                    < Geodesic.distance(from: fixes.last!.coordinate!, to: parked.position),
                "nearer the true spot than the last fix")

        var away = DriveSimulator(start: fixes.last!.time!.adding(seconds: 1), origin: parked.position, seed: 86)
        away.drive(800, kmh: 50, endKmh: 50)
        try await tracker.feedAndWait(away.fixes)
        let moving = await tracker.request(.addPlace(PlaceAddParams(name: "Road", here: true)))
        guard case .failure(let error) = moving else {
            Issue.record("named a place while moving: \(moving)")
            await tracker.finish()
            return
        }
        #expect(error.message.hasPrefix("the car is moving"))
        await tracker.finish()
    }
}
