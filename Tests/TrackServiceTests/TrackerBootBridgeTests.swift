import TestSupport
import Testing
import TrackCore
import TrackInput
import TrackStore
@testable import TrackService

/// The trip asked at boot, in a real mileage log: the drive from where the previous trip ended to the first fix,
/// while the board booted, is bridged and shown in the trip's events; the trip starts at the parked spot.
struct TrackerBootBridgeTests {
    private let morning = UTCTime.iso("2026-11-23T07:30:00Z")

    /// A first trip recorded and closed at shutdown; the power off for 30 minutes; the second drive from the spot it
    /// ended at, the car off 3 s after power-on, the receiver heard 35 s after it. Returns the log, the second drive
    /// and the fixes trackd hears of it.
    private func twoDrives(_ folder: TemporaryFolder) async throws -> (MileageLog, DriveSimulator, UTCTime, [Fix]) {
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        var first = DriveSimulator(start: morning, seed: 21)
        first.park(10)
        first.drive(1200, kmh: 40)
        first.park(30)
        let firstRun = TrackerHarness(log: log, origin: morning, autoStart: .business)
        try await firstRun.feedAndWait(first.fixes)
        await firstRun.finish()

        let powerOn = first.now.adding(seconds: 1800)
        var second = DriveSimulator(start: powerOn, origin: first.position, seed: 22)
        second.park(3)
        second.drive(2000, kmh: 45)
        second.park(20)
        return (log, second, powerOn, second.fixes.filter { $0.time!.seconds(since: powerOn) >= 35 })
    }

    @Test func theTripAtBootIsBridgedFromThePreviousTripsEndAndStartsThereAtPowerOn() async throws {
        let folder = try TemporaryFolder()
        let (log, drive, powerOn, fixes) = try await twoDrives(folder)
        let secondRun = TrackerHarness(log: log, origin: powerOn, autoStart: .business, poweredAt: powerOn)
        try await secondRun.feedAndWait(fixes)
        await secondRun.finish()

        let trips = try await log.trips(dates: nil)
        #expect(trips.count == 2)
        let trip = try #require(trips.last)
        let before = try #require(drive.truth.first { $0.time == fixes[0].time }).distance
        #expect(before > 300, "driven before the first fix: \(before) m")
        #expect(abs(trip.bridgedDistance - before) < 10, "bridged \(trip.bridgedDistance) m of \(before) m")
        #expect(abs(trip.distance - drive.trueDistance) / drive.trueDistance < 0.01,
                "logged \(trip.distance) m, driven \(drive.trueDistance) m")
        #expect(trip.start == powerOn)
        let start = try #require(trip.startPosition)
        let previousEnd = try #require(trips.first?.endPosition)
        #expect(Geodesic.distance(from: start, to: previousEnd) < 1, "the trip starts where the last one ended")
        let events = try await log.events(tripID: trip.id)
        let gap = try #require(events.first { $0.kind == .gap })
        #expect(gap.detail.hasPrefix("drive before the first fix, from where the car was parked, 35 s from power-on: "
                                     + "straight_line, \(Int(trip.bridgedDistance.rounded())) m added"), "\(gap.detail)")
        // Its track: the spot, a segment of its own, then the drive from the first fix.
        let track = try await log.track(trip.id)
        #expect(track.count == 2)
        #expect(track.first?.count == 1)
        #expect(track.first?.first?.time == powerOn)
    }

    @Test func restartedLongAfterThePreviousTripNothingIsBridged() async throws {
        let folder = try TemporaryFolder()
        let (log, drive, powerOn, fixes) = try await twoDrives(folder)
        // Not at boot (no power-on known): the car was last seen 30 minutes before the first fix.
        let secondRun = TrackerHarness(log: log, origin: powerOn, autoStart: .business)
        try await secondRun.feedAndWait(fixes)
        await secondRun.finish()

        let trip = try #require(try await log.trips(dates: nil).last)
        #expect(trip.bridgedDistance == 0)
        #expect(trip.gapCount == 0)
        #expect(trip.start == fixes[0].time)
        let before = try #require(drive.truth.first { $0.time == fixes[0].time }).distance
        #expect(drive.trueDistance - trip.distance > before - 10, "short by what was driven before the first fix")
    }

    @Test func aTripThatStartsAtTheCarsOdometerBridgesNothing() async throws {
        let folder = try TemporaryFolder()
        let (log, _, powerOn, fixes) = try await twoDrives(folder)
        // With an OBD-II adapter the trip asked at boot waits for the car's odometer and starts at it: the car's
        // reading already holds what it drove before it was read, so nothing is added from the parked spot.
        let secondRun = TrackerHarness(log: log, origin: powerOn, autoStart: .business, poweredAt: powerOn,
                                       carWaitAtBoot: 30)
        secondRun.obd(.adapter(.tcp(host: "127.0.0.1", port: 35000)))
        secondRun.obd(.event(.state(.connected("127.0.0.1:35000"))))
        secondRun.obd(.event(.dialogue(.carAnswered(supported: [0x0C, 0x0D]))))
        secondRun.obd(.event(.dialogue(.odometerSupport(true))))
        let readAt = secondRun.instant(powerOn.adding(seconds: 8))
        secondRun.obd(.event(.dialogue(.reading(.odometer(kilometres: 50123.4), at: readAt))))
        try await secondRun.feedAndWait(fixes)
        await secondRun.finish()

        let trip = try #require(try await log.trips(dates: nil).last)
        #expect(trip.odometerStartSource == .car)
        #expect(trip.odometerStart == 50_123_400)
        #expect(trip.bridgedDistance == 0)
        #expect(trip.gapCount == 0)
        #expect(trip.start == fixes[0].time)
    }
}
