import Foundation
import TestSupport
import Testing
import TrackCore
@testable import TrackStore

@Suite("Recording GPS trips into the log")
struct TripRecordingTests {
    /// Points a second apart at 10 m/s due east of `origin`, the first at `start` (seconds `range` of the drive).
    static func eastbound(_ range: Range<Int>, from origin: Coordinate, at start: UTCTime) -> [RecordedPoint] {
        range.map { second in
            RecordedPoint(point: TrackPoint(time: start.adding(seconds: Double(second)),
                                            coordinate: Geodesic.point(east: Double(second) * 10, north: 0, from: origin),
                                            speed: 10, error: 3, distance: Double(second) * 10), segment: 0)
        }
    }

    @Test func aTripClosedWithoutAnyFixIsDatedTheDayItWasClosed() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await log.beginTrip(kind: .business, purpose: "Client visit", customer: nil)
        let closed = try await log.closeTrip(trip.id, TripSummary(
            start: nil, end: nil, startPosition: nil, endPosition: nil, measuredDistance: 0, purpose: nil,
            endReason: "stopped", closedAt: UTCTime(iso8601: "2026-11-22T23:30:00Z")))
        #expect(closed.date == CivilDate(year: 2026, month: 11, day: 22))
        #expect(try await log.trips(period: .month(year: 2026, month: 11), now: UTCTime(iso8601: "2026-11-23T08:00:00Z")!)
            .map(\.id) == [trip.id], "it is listed in its month")
    }

    @Test func aPurposeAndCustomerGivenWithTheStopAreTheEntryAsWrittenNotAChange() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await log.beginTrip(kind: .business, purpose: nil, customer: nil)
        let start = UTCTime(iso8601: "2026-11-22T08:00:00Z")!
        let origin = Coordinate(latitude: 52.52, longitude: 13.40)
        try await log.appendPoints(Self.eastbound(0..<60, from: origin, at: start), to: trip.id)
        let closed = try await log.closeTrip(trip.id, TripSummary(
            start: start, end: start.adding(seconds: 59), startPosition: origin, endPosition: nil, measuredDistance: 590,
            purpose: "Delivery", customer: "Example Ltd", endReason: "stopped"))
        #expect(closed.purpose == "Delivery")
        #expect(closed.customer == "Example Ltd")
        #expect(try await log.tripDetail(trip.id).revisions.isEmpty)
        let overview = try await log.tripsOverview(TripsParams(period: .month(year: 2026, month: 11)),
                                                   now: UTCTime(iso8601: "2026-11-23T08:00:00Z")!)
        #expect(overview.changed.isEmpty)
    }

    @Test func theEnginesStartWinsOverALaterFirstStoredPoint() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await log.beginTrip(kind: .private, purpose: nil, customer: nil)
        let point = TrackPoint(time: UTCTime(iso8601: "2026-11-22T00:00:02Z")!, coordinate: Coordinate(latitude: 59.4, longitude: 24.7),
                               speed: 0, error: 3, distance: 0)
        try await log.appendPoints([RecordedPoint(point: point, segment: 0)], to: trip.id)
        // The first usable fix came before midnight (a position still settling), so the trip starts the day before.
        let closed = try await log.closeTrip(trip.id, TripSummary(
            start: UTCTime(iso8601: "2026-11-21T23:59:59Z"), end: point.time, startPosition: nil, endPosition: nil,
            measuredDistance: 0, purpose: nil, endReason: "stopped"))
        #expect(closed.start == UTCTime(iso8601: "2026-11-21T23:59:59Z"))
        #expect(closed.date == CivilDate(year: 2026, month: 11, day: 21))
    }

    @Test func aRunningTripIsListedWithItsDistanceSoFarAndTheOdometerThere() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        // A calibration factor as two dashboard readings would have set it (here straight into the file).
        _ = try sqlite3(folder.file("trackd.sqlite"), "UPDATE profile SET calibration_factor = 1.02 WHERE id = 1")
        _ = try await log.setOdometer(100_000, reason: "dashboard",
                                      context: ChangeContext(user: "test", time: UTCTime(iso8601: "2026-11-22T07:00:00Z")!, timeSource: "gps"))
        let trip = try await log.beginTrip(kind: .business, purpose: "Client visit", customer: nil)
        let points = [0.0, 600, 1250].enumerated().map { second, metres in
            RecordedPoint(point: TrackPoint(time: UTCTime(iso8601: "2026-11-22T08:00:00Z")!.adding(seconds: Double(second * 60)),
                                            coordinate: Coordinate(latitude: 59.4 + metres / 111_000, longitude: 24.7),
                                            speed: 10, error: 3, distance: metres), segment: 0)
        }
        try await log.appendPoints(points, to: trip.id)
        // 1250 m measured × 1.02: 1275 m, listed while the trip runs, and the odometer there.
        let listed = try #require(try await log.trips(dates: nil).first { $0.id == trip.id })
        #expect(listed.state == .open)
        #expect(listed.measuredDistance == 1250)
        #expect(abs(listed.distance - 1275) < 1e-9)
        #expect(listed.odometerEnd.map { abs($0 - 101_275) < 1e-9 } == true, "\(String(describing: listed.odometerEnd))")
        #expect(try await log.trip(trip.id).distance == listed.distance)
        #expect(try await log.tripDetail(trip.id).trip.distance == listed.distance)
        // The row itself gets its distance at the close, by the same formula.
        let closed = try await log.closeTrip(trip.id, TripSummary(
            start: points[0].point.time, end: points[2].point.time, startPosition: nil, endPosition: nil,
            measuredDistance: 1250, purpose: nil, endReason: "stopped"))
        #expect(closed.distance == listed.distance)
        #expect(closed.odometerEnd == listed.odometerEnd)
    }

    @Test func aClosedTripTakesNoMoreTrackPoints() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await log.beginTrip(kind: .business, purpose: "Client visit", customer: nil)
        let point = TrackPoint(time: UTCTime(iso8601: "2026-11-22T08:00:02Z")!, coordinate: Coordinate(latitude: 59.4, longitude: 24.7),
                               speed: 0, error: 3, distance: 0)
        try await log.appendPoints([RecordedPoint(point: point, segment: 0)], to: trip.id)
        _ = try await log.closeTrip(trip.id, TripSummary(
            start: point.time, end: point.time, startPosition: nil, endPosition: nil, measuredDistance: 0, purpose: nil,
            endReason: "power-lost"))
        // A second trackd on the same folder went on appending to the trip the first one closed.
        let later = TrackPoint(time: UTCTime(iso8601: "2026-11-22T08:00:03Z")!, coordinate: Coordinate(latitude: 59.41, longitude: 24.7),
                               speed: 10, error: 3, distance: 10)
        await #expect {
            try await log.appendPoints([RecordedPoint(point: later, segment: 0)], to: trip.id)
        } throws: { error in
            "\(error)" == "trip \(trip.id) is closed in the log; its track takes no more points"
        }
        await #expect(throws: StoreError.self) {
            try await log.appendPoints([RecordedPoint(point: later, segment: 0)], to: TripID(trip.id.rawValue + 1))
        }
        #expect(try await log.track(trip.id).joined().count == 1)
        let report = try await log.verify()
        #expect(report.isIntact, "\(report)")
    }

    @Test func aRecordedTripKeepsItsTrackTimesAndDistance() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z", seconds: 600, segments: 2)
        #expect(trip.state == .closed)
        #expect(trip.source == .gps)
        #expect(trip.start == UTCTime(iso8601: "2026-11-20T08:00:00Z"))
        #expect(trip.end == UTCTime(iso8601: "2026-11-20T08:10:00Z"))
        #expect(trip.distance == 6000)
        #expect(trip.date == CivilDate(year: 2026, month: 11, day: 20))
        #expect(trip.endReason == "stopped")
        let track = try await log.track(trip.id)
        #expect(track.count == 2, "a new segment after the outage")
        #expect(track.map(\.count).reduce(0, +) == 601)
        let last = try #require(track.last?.last)
        #expect(abs(last.distance - 6000) < 0.01)
        #expect(abs(last.coordinate.latitude - 59.437) < 1e-7)
        #expect(last.time == UTCTime(iso8601: "2026-11-20T08:10:00Z"))
    }

    @Test func eachTripStartsAtThePreviousTripsOdometer() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await log.setOdometer(48_210_000, reason: "initial reading", context: TestContext.at("2026-11-20T07:00:00Z"))
        let first = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z", seconds: 600)
        let second = try await recordTrip(in: log, kind: .private, purpose: nil, start: "2026-11-20T12:00:00Z", seconds: 450)
        #expect(first.odometerStart == 48_210_000)
        #expect(first.odometerEnd == 48_216_000)
        #expect(second.odometerStart == first.odometerEnd)
        #expect(second.odometerEnd == 48_220_500)
        #expect(try await log.odometer() == 48_220_500)
    }

    @Test func calibrationScalesTheLoggedDistanceNotTheMeasuredOne() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        try sqlite3(folder.file("trackd.sqlite"), "UPDATE profile SET calibration_factor = 1.02")
        let trip = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z", seconds: 1000)
        #expect(trip.measuredDistance == 10_000)
        #expect(trip.calibrationFactor == 1.02)
        #expect(abs(trip.distance - 10_200) < 1e-6)
    }

    @Test func outagesAndIdleAlertsAreCountedOnTheOpenTrip() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await log.beginTrip(kind: .business, purpose: "Delivery", customer: "Harbour Ltd")
        var gap = GapReport(start: UTCTime(iso8601: "2026-11-20T08:05:00Z")!, end: UTCTime(iso8601: "2026-11-20T08:06:00Z")!,
                            duration: 60)
        gap.outcome = .straightLine
        gap.distance = 820
        try await log.recordGap(gap, tripID: trip.id)
        try await log.recordIdleAlert(IdleAlert(time: UTCTime(iso8601: "2026-11-20T10:06:00Z")!,
                                                stationarySince: UTCTime(iso8601: "2026-11-20T08:06:00Z")!,
                                                position: nil, tripNumber: trip.id), tripID: trip.id)
        let open = try #require(try await log.openTrip())
        #expect(open.trip.gapCount == 1)
        #expect(open.trip.bridgedDistance == 820)
        #expect(open.trip.bridgedSeconds == 60)
        #expect(open.trip.idleAlerts == 1)
        #expect(open.points == 0)
        let events = try await log.events(tripID: trip.id)
        #expect(events.map(\.kind) == [.gap, .idleAlert])
    }

    @Test func anOpenTripIsFoundWithItsFirstAndLastPoint() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        #expect(try await log.openTrip() == nil)
        let trip = try await log.beginTrip(kind: .private, purpose: nil, customer: nil)
        let start = UTCTime(iso8601: "2026-11-20T08:00:00Z")!
        let points = (0..<5).map { second in
            RecordedPoint(point: TrackPoint(time: start.adding(seconds: Double(second)),
                                            coordinate: Coordinate(latitude: 59.4, longitude: 24.7 + Double(second) * 1e-4),
                                            speed: 5.5, error: 4, distance: Double(second) * 5.7), segment: 0)
        }
        try await log.appendPoints(points, to: trip.id)
        let open = try #require(try await log.openTrip())
        #expect(open.trip.id == trip.id)
        #expect(open.points == 5)
        #expect(open.first?.point.time == start)
        #expect(open.last?.point.time == start.adding(seconds: 4))
        #expect(open.trip.start == start, "the first points fix the start")
        #expect(open.trip.date == CivilDate(year: 2026, month: 11, day: 20))
        await #expect(throws: StoreError.self, "only one trip can be open") {
            try await log.beginTrip(kind: .business, purpose: "x", customer: nil)
        }
    }

    @Test func anOpenTripCutInAStopEndsAtTheStopsMeanAndOneCutWhileDrivingAtItsLastPoint() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await log.beginTrip(kind: .business, purpose: "Delivery", customer: nil)
        let origin = Coordinate(latitude: 59.437, longitude: 24.7536)
        let start = UTCTime(iso8601: "2026-11-20T08:00:00Z")!
        let points = Self.eastbound(0..<60, from: origin, at: start)
        try await log.appendPoints(points, to: trip.id)
        let stored = try #require(try await log.openTrip())
        let last = try #require(stored.last?.point.coordinate)
        #expect(stored.startPosition == stored.first?.point.coordinate, "before any mean: the first point")
        #expect(stored.endPosition == last)

        // The engine's means: the start's stop, and the stop the car now stands in, 6 m from the last point.
        let parkedAtStart = Geodesic.point(east: -2, north: 1, from: origin)
        let parked = Geodesic.point(east: 596, north: 3, from: origin)
        try await log.noteEnds(TripEnds(start: parkedAtStart, end: parked), tripID: trip.id)
        let cut = try #require(try await log.openTrip())
        #expect(cut.startPosition.map { Geodesic.distance(from: $0, to: parkedAtStart) < 0.01 } == true)
        #expect(cut.endPosition.map { Geodesic.distance(from: $0, to: parked) < 0.01 } == true)

        // The car drove on and was cut while driving: the row's end is an old stop, the last point is newer.
        let onward = Self.eastbound(60..<70, from: origin, at: start)
        try await log.appendPoints(onward, to: trip.id)
        let driving = try #require(try await log.openTrip())
        #expect(driving.endPosition == driving.last?.point.coordinate)
        #expect(driving.startPosition.map { Geodesic.distance(from: $0, to: parkedAtStart) < 0.01 } == true)
    }

    @Test func theEndsGoWithThePointsInOneTransaction() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await log.beginTrip(kind: .business, purpose: nil, customer: nil)
        let origin = Coordinate(latitude: 59.437, longitude: 24.7536)
        let start = UTCTime(iso8601: "2026-11-20T08:00:00Z")!
        let points = Self.eastbound(0..<10, from: origin, at: start)
        let parkedAtStart = Geodesic.point(east: -2, north: 1, from: origin)
        try await log.appendPoints(points, to: trip.id, ends: TripEnds(start: parkedAtStart))
        let stored = try #require(try await log.openTrip())
        #expect(stored.points == 10)
        #expect(stored.startPosition.map { Geodesic.distance(from: $0, to: parkedAtStart) < 0.01 } == true)
        // Standing, with no new point: the ends alone.
        let parked = Geodesic.point(east: 93, north: 2, from: origin)
        try await log.appendPoints([], to: trip.id, ends: TripEnds(end: parked))
        let standing = try #require(try await log.openTrip())
        #expect(standing.endPosition.map { Geodesic.distance(from: $0, to: parked) < 0.01 } == true)
        #expect(standing.points == 10)
    }

    @Test func aTripWithoutItsRouteKeepsNoEndsAndAClosedTripKeepsItsOwn() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let here = Coordinate(latitude: 59.437, longitude: 24.7536)
        let withheld = try await log.beginTrip(kind: .private, purpose: nil, customer: nil, route: .withheld)
        try await log.noteEnds(TripEnds(start: here, end: here), tripID: withheld.id)
        let open = try #require(try await log.openTrip())
        #expect(open.trip.startPosition == nil && open.trip.endPosition == nil)
        let closed = try await log.closeTrip(withheld.id, TripSummary(
            start: UTCTime(iso8601: "2026-11-20T08:00:00Z"), end: UTCTime(iso8601: "2026-11-20T08:10:00Z"),
            startPosition: nil, endPosition: nil, measuredDistance: 0, purpose: nil, endReason: "stopped",
            closedAt: UTCTime(iso8601: "2026-11-20T08:10:00Z")!))
        try await log.noteEnds(TripEnds(start: here, end: here), tripID: closed.id)
        let after = try await log.trips(dates: nil).first { $0.id == closed.id }
        #expect(after?.startPosition == nil && after?.endPosition == nil)
        #expect(try await log.verify().problems.isEmpty)
    }

    @Test func theLocalDateFollowsTheProfilesTimeZone() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await log.setProfile(ProfileChanges(timeZone: "Europe/Tallinn"), reason: nil,
                                     context: TestContext.at("2026-11-20T07:00:00Z"))
        // 22:30 UTC on 30 November is 00:30 on 1 December in Tallinn.
        let trip = try await recordTrip(in: log, start: "2026-11-30T22:30:00Z", seconds: 60)
        #expect(trip.date == CivilDate(year: 2026, month: 12, day: 1))
    }
}
