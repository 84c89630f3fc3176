import TestSupport
import Testing
@testable import TrackCore

/// The drive while the board boots: a trip asked at boot, before its first fix, is bridged from where the car was
/// parked (`EngineInput.parkedBefore`) to its first trusted position, like an outage.
struct DriveBeforeFirstFixTests {
    private let powerOn = UTCTime(iso8601: "2026-11-22T08:00:00Z")!

    /// A car parked at its spot, powered on at `powerOn`, driven off 3 s later: 400 m east at 40 km/h, a corner,
    /// 1.5 km north and a stop. The receiver is heard from `heard` seconds after power-on.
    private func bootDrive(heardAfter heard: Double = 35, seed: UInt64 = 3) -> (drive: DriveSimulator, fixes: [Fix]) {
        var drive = DriveSimulator(start: powerOn, seed: seed)
        drive.park(3)
        drive.drive(400, kmh: 40, endKmh: 15)
        drive.drive(30, kmh: 15, endKmh: 15, turnDegrees: -90)
        drive.drive(1500, kmh: 40)
        drive.park(20)
        return (drive, drive.fixes.filter { $0.time!.seconds(since: powerOn) >= heard })
    }

    /// The trip asked at power-on, told where the car was parked (unless `parked` is `nil`), fed `fixes`, stopped.
    private func bootTrip(_ fixes: [Fix], parked: ParkedOrigin?) throws -> (trip: Trip, events: [EngineEvent]) {
        var run = EngineRun()
        run.start(at: powerOn)
        if var parked {
            parked.poweredAt = run.clock(powerOn)
            run.engine.handle(.parkedBefore(parked)) { run.events.append($0) }
        }
        run.feed(fixes)
        run.stop(at: fixes.last!.time!)
        return (try #require(run.endedTrips.first), run.events)
    }

    private func spot(_ drive: DriveSimulator, error: Double = 3) -> ParkedOrigin {
        ParkedOrigin(coordinate: drive.origin, error: error, time: powerOn.adding(seconds: -1800), poweredAt: nil)
    }

    @Test func theMetresDrivenWhileTheBoardBootedAreBridgedFromWhereTheCarWasParked() throws {
        let (drive, fixes) = bootDrive()
        let (trip, events) = try bootTrip(fixes, parked: spot(drive))
        let gap = try #require(trip.gaps.first)
        #expect(gap.beforeFirstFix)
        #expect(gap.outcome == .straightLine)
        #expect(gap.start == powerOn, "the car could move from power-on")
        #expect(gap.end == fixes[0].time)
        // Straight out of the spot: the straight line is the way driven, up to the receiver's few metres.
        let before = try #require(drive.truth.first { $0.time == fixes[0].time }).distance
        #expect(before > 250, "the car drove \(before) m before the first fix")
        #expect(abs(gap.distance - before) < 10, "bridged \(gap.distance) m of \(before) m")
        let error = (trip.measuredDistance - drive.trueDistance) / drive.trueDistance
        #expect(abs(error) < 0.01, "the trip \(trip.measuredDistance) m, driven \(drive.trueDistance) m")
        // The trip starts where the car stood, at power-on; its track begins there, before the bridge.
        #expect(trip.start == powerOn)
        #expect(trip.startPosition == drive.origin)
        let points = events.compactMap { if case .trackPoint(let point) = $0 { return point } else { return nil } }
        #expect(points.first?.coordinate == drive.origin)
        #expect(points.first?.time == powerOn)
        let gapIndex = try #require(events.firstIndex { if case .gap = $0 { return true } else { return false } })
        let firstPointIndex = try #require(events.firstIndex { if case .trackPoint = $0 { return true } else { return false } })
        #expect(firstPointIndex < gapIndex, "the spot is a segment of its own, before the bridge")

        // Without the spot the same trip starts at its first fix and is short by what was driven meanwhile.
        let (unbridged, _) = try bootTrip(fixes, parked: nil)
        #expect(unbridged.gaps.isEmpty)
        #expect(unbridged.start == fixes[0].time)
        #expect(drive.trueDistance - unbridged.measuredDistance > before - 10)
    }

    @Test func aCornerBeforeTheFirstFixIsCutByTheStraightLineButNoMore() throws {
        let (drive, fixes) = bootDrive(heardAfter: 55)
        let (trip, _) = try bootTrip(fixes, parked: spot(drive))
        let gap = try #require(trip.gaps.first)
        let before = try #require(drive.truth.first { $0.time == fixes[0].time }).distance
        #expect(before > 430, "the car turned the corner before the first fix (\(before) m)")
        let straight = try #require(gap.straightLine)
        #expect(gap.distance < before, "the straight line cuts the corner")
        #expect(gap.distance > before * 0.7, "but by no more than an L of two legs can: \(gap.distance) of \(before) m")
        #expect(abs(gap.distance - straight) < 1e-9)
    }

    @Test func aFirstFixStillConvergingEndsTheBridgeSoTheCornerDrivenAfterItIsNotCut() throws {
        let (drive, heard) = bootDrive()
        // The receiver claims 30 m for its first 40 fixes (under trees): none is trusted before the car has turned
        // the corner, 400 m out, and driven on north.
        let fixes = heard.enumerated().map { index, fix in
            var fix = fix
            if index < 40 { fix.eph = 30 }
            return fix
        }
        let (trip, _) = try bootTrip(fixes, parked: spot(drive))
        let gap = try #require(trip.gaps.first)
        let before = try #require(drive.truth.first { $0.time == fixes[0].time }).distance
        #expect(gap.end == fixes[0].time, "the bridge ends at the first fix")
        #expect(abs(gap.distance - before) < 10, "bridged \(gap.distance) m of \(before) m")
        let error = (trip.measuredDistance - drive.trueDistance) / drive.trueDistance
        #expect(abs(error) < 0.01, "the trip \(trip.measuredDistance) m, driven \(drive.trueDistance) m")
    }

    @Test func aCarStillAtItsSpotAtTheFirstFixAddsNothingAndStartsThere() throws {
        var drive = DriveSimulator(start: powerOn, seed: 5)
        drive.park(60)
        drive.drive(800, kmh: 40)
        drive.park(20)
        let fixes = drive.fixes.filter { $0.time!.seconds(since: powerOn) >= 35 }
        let (trip, _) = try bootTrip(fixes, parked: spot(drive))
        #expect(trip.gaps.isEmpty, "standing where it was parked is no outage")
        #expect(trip.start == fixes[0].time, "nothing driven before it: the trip starts at its first fix")
        #expect(abs(trip.measuredDistance - 800) < 8)
    }

    @Test func aFirstFixLongAfterPowerOnIsNotBridged() throws {
        let (drive, fixes) = bootDrive(heardAfter: 35)
        var configuration = EngineConfiguration()
        configuration.bridgeFromParkedWithin = 30
        var run = EngineRun(configuration: configuration)
        run.start(at: powerOn)
        var parked = spot(drive)
        parked.poweredAt = run.clock(powerOn)
        run.engine.handle(.parkedBefore(parked)) { run.events.append($0) }
        run.feed(fixes)
        run.stop(at: fixes.last!.time!)
        let trip = try #require(run.endedTrips.first)
        #expect(trip.gaps.isEmpty, "35 s after power-on, more than the 30 s allowed")
        #expect(trip.start == fixes[0].time)
    }

    @Test func aFirstFixFartherThanTheCarCouldHaveDrivenIsNotBridged() throws {
        let (drive, fixes) = bootDrive()
        // The log's last spot is 20 km away: the car was carried (a ferry, a trailer), or the board moved cars.
        let far = ParkedOrigin(coordinate: Geodesic.point(east: 0, north: 20_000, from: drive.origin), error: 3,
                               time: powerOn.adding(seconds: -1800), poweredAt: nil)
        let (trip, _) = try bootTrip(fixes, parked: far)
        let gap = try #require(trip.gaps.first)
        #expect(gap.beforeFirstFix)
        #expect(gap.outcome == .notBridged)
        #expect(gap.distance == 0)
        #expect(gap.note?.contains("km/h") == true, "\(gap.note ?? "no note")")
        #expect(trip.start == fixes[0].time)
        #expect(trip.startPosition != far.coordinate)
    }

    @Test func withoutAPowerOnAfterTheCarWasLastSeenNothingIsBridged() throws {
        let (drive, fixes) = bootDrive()
        // A restart (no power-on known), the car last seen 20 s before the first fix: it may have been driven while
        // trackd was stopped, and the trip keeps to what trackd saw.
        var restarted = spot(drive)
        restarted.time = fixes[0].time!.adding(seconds: -20)
        var run = EngineRun()
        run.start(at: powerOn)
        run.engine.handle(.parkedBefore(restarted)) { run.events.append($0) }
        run.feed(fixes)
        run.stop(at: fixes.last!.time!)
        #expect(try #require(run.endedTrips.first).gaps.isEmpty)
        // Powered before the car was last seen there (trackd restarted after the previous trip closed, in the same
        // boot): its end is no parked spot of this boot; the new trip must not start at the old one's last point.
        var sameBoot = spot(drive)
        sameBoot.time = fixes[0].time!.adding(seconds: -10)
        let (trip, events) = try bootTrip(fixes, parked: sameBoot)
        #expect(trip.gaps.isEmpty)
        #expect(trip.start == fixes[0].time)
        let times = events.compactMap { if case .trackPoint(let point) = $0 { point.time } else { nil } }
        #expect(!times.contains(sameBoot.time))
    }

    @Test func aFirstFixWithinSecondsOfPowerOnLeavesALaterTunnelAnOutageLikeAnyOther() throws {
        var drive = DriveSimulator(start: powerOn, seed: 9)
        drive.park(3)
        drive.drive(600, kmh: 50, endKmh: 50)
        drive.outage(20)
        drive.drive(600, kmh: 50)
        drive.park(20)
        // Heard 4 s after power-on: within gap_after, so no drive before the first fix to bridge.
        let fixes = drive.fixes.filter { $0.time!.seconds(since: powerOn) >= 4 }
        let (trip, events) = try bootTrip(fixes, parked: spot(drive))
        let tunnel = try #require(trip.gaps.first)
        #expect(trip.gaps.count == 1)
        #expect(!tunnel.beforeFirstFix, "the tunnel is no drive before the first fix")
        #expect(tunnel.duration > 15)
        #expect(trip.start == fixes[0].time, "the trip starts at its first fix, not moved to the tunnel")
        let points = events.compactMap { if case .trackPoint(let point) = $0 { point } else { nil } }
        #expect(!points.contains { $0.coordinate == drive.origin }, "no point at the parked spot")
    }

    @Test func theSpotIsIgnoredOnceAFixHasArrivedOrWithoutATripWaitingForOne() throws {
        let (drive, fixes) = bootDrive()
        var run = EngineRun()
        run.feed(Array(fixes.prefix(5)))
        run.start(at: fixes[4].time!)
        run.engine.handle(.parkedBefore(spot(drive))) { run.events.append($0) }
        run.feed(Array(fixes.dropFirst(5)))
        run.stop(at: fixes.last!.time!)
        let trip = try #require(run.endedTrips.first)
        #expect(trip.gaps.isEmpty, "a trip started after fixes already came bridges nothing")

        var idle = EngineRun()
        idle.engine.handle(.parkedBefore(spot(drive))) { idle.events.append($0) }
        idle.feed(fixes)
        #expect(!idle.events.contains { if case .gap = $0 { return true } else { return false } },
                "no trip: nothing to bridge for")
    }
}
