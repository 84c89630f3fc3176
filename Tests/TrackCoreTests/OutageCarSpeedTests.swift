import TestSupport
import Testing
@testable import TrackCore

/// Outages counted by the car's own speed (OBD-II PID 0D, whole km/h) where an adapter read it throughout.
struct OutageCarSpeedTests {
    /// A drive with a 2 km curved tunnel in which the car slows from 90 to 60 km/h; `tunnel` is its true length.
    private func tunnelDrive() -> (drive: DriveSimulator, tunnel: Double) {
        var drive = DriveSimulator(seed: 41)
        drive.park(10)
        drive.drive(1500, kmh: 90, endKmh: 90)
        let before = drive.trueDistance
        drive.outage(96, turnDegrees: 70, endKmh: 60)
        let tunnel = drive.trueDistance - before
        drive.drive(1000, kmh: 60)
        drive.park(10)
        return (drive, tunnel)
    }

    /// The true distance between the fixes at `start` and `end`.
    private func driven(_ drive: DriveSimulator, from start: UTCTime, to end: UTCTime) throws -> Double {
        let first = try #require(drive.fixes.firstIndex { $0.time == start })
        let last = try #require(drive.fixes.firstIndex { $0.time == end })
        return drive.fixDistances[last] - drive.fixDistances[first]
    }

    /// The trip an engine records from `fixes` with the car's speeds between them, started at the first fix and
    /// stopped at `end`.
    private func recordedTrip(_ fixes: [Fix], carSpeeds: [(time: UTCTime, kilometresPerHour: Double)],
                      until end: UTCTime) throws -> Trip {
        var run = EngineRun()
        run.start(at: fixes[0].time!)
        run.feed(fixes, carSpeeds: carSpeeds)
        run.stop(at: end)
        return try #require(run.endedTrips.first)
    }

    @Test func aTwoKilometreTunnelIsCountedByTheCarsSpeedWithinHalfAPercent() throws {
        let (drive, tunnel) = tunnelDrive()
        #expect(abs(tunnel - 2000) < 10)
        let trip = try recordedTrip(drive.fixes, carSpeeds: drive.carSpeeds, until: drive.now)
        let gap = try #require(trip.gaps.first)
        #expect(trip.gaps.count == 1)
        #expect(gap.outcome == .carSpeed)
        #expect(gap.isBridged)
        #expect(gap.carSpeedDistance == gap.distance)
        // The outage runs from the last fix before the tunnel to the first one after it.
        let truth = try driven(drive, from: gap.start, to: gap.end)
        #expect(abs(gap.distance - truth) / truth < 0.005, "outage \(truth) m, counted \(gap.distance) m")
        let error = (trip.measuredDistance - drive.trueDistance) / drive.trueDistance
        #expect(abs(error) < 0.005)

        // The same drive without the car: the bridge across the bend, further from the truth.
        let bridgedTrip = try recordedTrip(drive.fixes, carSpeeds: [], until: drive.now)
        let bridge = try #require(bridgedTrip.gaps.first)
        #expect(bridge.outcome == .curve)
        #expect(abs(bridge.distance - truth) > abs(gap.distance - truth), "bridge \(bridge.distance) m, car \(gap.distance) m")
        let bridgedError = (bridgedTrip.measuredDistance - drive.trueDistance) / drive.trueDistance
        #expect(abs(bridgedError) > abs(error), "bridged \(bridgedError), car \(error)")
    }

    @Test func aTripThatEndsInACarParkUnderARoofCountsTheWayInByTheCarsSpeedAndEndsWhereTheCarStood() throws {
        var drive = DriveSimulator(seed: 42)
        drive.park(10)
        drive.drive(1500, kmh: 50, endKmh: 20)
        let lastFix = try #require(drive.fixes.last?.time)
        let before = drive.trueDistance
        // Down the ramps, round and round, to a stop; then parked under the roof with the engine running a while.
        drive.outage(45, turnDegrees: 540, endKmh: 0)
        let ramps = drive.trueDistance - before
        let stood = drive.now
        drive.outage(120)
        let trip = try recordedTrip(drive.fixes, carSpeeds: drive.carSpeeds, until: drive.now)
        let gap = try #require(trip.gaps.first)
        #expect(trip.gaps.count == 1)
        #expect(gap.outcome == .carSpeed && gap.isBridged)
        #expect(gap.start == lastFix)
        #expect(abs(gap.distance - ramps) / ramps < 0.02, "ramps \(ramps) m, counted \(gap.distance) m")
        #expect(abs((trip.measuredDistance - drive.trueDistance) / drive.trueDistance) < 0.005)
        // It ends when the car came to rest (the first of the car's 0 km/h readings), not at its last fix.
        let end = try #require(trip.end)
        #expect(abs(end.seconds(since: stood)) <= 2, "ended \(end), stood \(stood)")

        // Without the car's speed the trip ends at its last fix, the ramps not counted.
        let plain = try recordedTrip(drive.fixes, carSpeeds: [], until: drive.now)
        #expect(plain.gaps.isEmpty)
        #expect(plain.end == lastFix)
        #expect(abs(trip.measuredDistance - plain.measuredDistance - gap.distance) < 0.001)
    }

    @Test func aTripClosedByTheIgnitionAfterTheCarDroveFromABarrierIntoACarParkEndsWhereItStoodInside() throws {
        var drive = DriveSimulator(seed: 44)
        drive.park(10)
        drive.drive(1500, kmh: 50)
        // At the barrier, in the open: the last fixes show the car standing.
        drive.park(8)
        let barrier = drive.trueDistance
        drive.outage(20, endKmh: 15)
        drive.outage(25, endKmh: 0)
        let inside = drive.trueDistance - barrier
        let stood = drive.now
        drive.outage(120)
        var run = EngineRun()
        run.start(at: drive.fixes[0].time!)
        run.feed(drive.fixes, carSpeeds: drive.carSpeeds)
        run.stop(at: drive.now, atStandstill: true)
        let trip = try #require(run.endedTrips.first)
        let gap = try #require(trip.gaps.first)
        #expect(gap.outcome == .carSpeed)
        #expect(abs(gap.distance - inside) / inside < 0.02, "inside \(inside) m, counted \(gap.distance) m")
        let end = try #require(trip.end)
        #expect(abs(end.seconds(since: stood)) <= 2, "ended \(end), stood \(stood): not at the barrier")
    }

    @Test func aTripThatEndsInAnOutageAfterTheAdapterWentSilentWhileMovingKeepsItsLastFix() throws {
        var drive = DriveSimulator(seed: 43)
        drive.park(10)
        drive.drive(1500, kmh: 50, endKmh: 20)
        let lastFix = try #require(drive.fixes.last?.time)
        drive.outage(45, turnDegrees: 540, endKmh: 0)
        drive.outage(120)
        // The adapter lost 20 s into the ramps: how far the car went after it is unknown.
        let speeds = drive.carSpeeds.filter { $0.time.seconds(since: lastFix) < 20 }
        let trip = try recordedTrip(drive.fixes, carSpeeds: speeds, until: drive.now)
        #expect(trip.gaps.isEmpty)
        #expect(trip.end == lastFix)
    }

    @Test func aFixThatArrivedLateBeforeTheTunnelDoesNotShortenTheStretchTheSpeedsAreCountedOver() throws {
        let (drive, _) = tunnelDrive()
        let onTime = try recordedTrip(drive.fixes, carSpeeds: drive.carSpeeds, until: drive.now)
        let counted = try #require(onTime.gaps.first?.distance)
        // The last fix before the tunnel reaches the engine 4 s late (a reader stalled on a busy board), after the
        // car's speeds of those 4 s; everything else on time.
        let entry = try #require(drive.fixes.indices.first { drive.fixes[$0 + 1].time!.seconds(since: drive.fixes[$0].time!) > 5 })
        var run = EngineRun()
        var inputs: [(at: MonotonicInstant, input: EngineInput)] = drive.carSpeeds.map {
            (run.clock($0.time), .carSpeed($0.kilometresPerHour / 3.6, at: run.clock($0.time)))
        }
        for (index, fix) in drive.fixes.enumerated() {
            let at = run.clock(fix.time!).adding(seconds: index == entry ? 4 : 0)
            inputs.append((at, .fix(fix, receivedAt: at)))
        }
        // In the order they arrive; a speed before a fix of the same instant.
        let ordered = inputs.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        run.start(at: drive.fixes[0].time!)
        for (_, input) in ordered { run.engine.handle(input) { run.events.append($0) } }
        run.stop(at: drive.now)
        let gap = try #require(run.endedTrips.first?.gaps.first)
        #expect(gap.outcome == .carSpeed)
        #expect(abs(gap.distance - counted) < 25, "late: \(gap.distance) m, on time: \(counted) m")
    }

    @Test func anOutageTheCarsSpeedDoesNotCoverIsBridgedFromThePositions() throws {
        let (drive, _) = tunnelDrive()
        // The adapter lost for 20 s in the middle of the tunnel.
        let tunnelStart = try #require(drive.fixes.last { $0.time! < drive.fixes[0].time!.adding(seconds: 140) }?.time)
        let speeds = drive.carSpeeds.filter { $0.time.seconds(since: tunnelStart) < 30 || $0.time.seconds(since: tunnelStart) > 50 }
        let gap = try #require(try recordedTrip(drive.fixes, carSpeeds: speeds, until: drive.now).gaps.first)
        #expect(gap.outcome == .curve)
        #expect(gap.carSpeedDistance == nil)
    }

    @Test func aCarSpeedShortOfTheStraightLineIsNotBelievedAndSaysSo() throws {
        let (drive, _) = tunnelDrive()
        // An adapter that answers 0 km/h throughout (a stale link, another car's bus).
        let speeds = drive.carSpeeds.map { (time: $0.time, kilometresPerHour: 0.0) }
        let gap = try #require(try recordedTrip(drive.fixes, carSpeeds: speeds, until: drive.now).gaps.first)
        #expect(gap.outcome == .curve)
        #expect(gap.carSpeedDistance == 0)
        #expect(gap.note?.contains("less than the straight line") == true, "\(gap.note ?? "")")
    }

    @Test func aCarParkedInAGarageWithTheEngineRunningAddsNothing() throws {
        var drive = DriveSimulator(seed: 42)
        drive.park(30)
        drive.outage(900)   // ten minutes under a roof, the engine idling: the car reads 0 km/h
        drive.park(30)
        let trip = try recordedTrip(drive.fixes, carSpeeds: drive.carSpeeds, until: drive.now)
        let gap = try #require(trip.gaps.first)
        #expect(gap.outcome == .parked)
        #expect(gap.carSpeedDistance == 0)
        #expect(trip.measuredDistance == 0)
    }

    @Test func aLoopInACarParkIsCountedThoughTheCarEndsWhereItStarted() throws {
        var drive = DriveSimulator(seed: 43)
        drive.park(30)
        // Under the roof: up the ramps and back down again to the same bay, 400 m of driving.
        drive.outage(2)
        drive.drive(200, kmh: 15, turnDegrees: 180)
        drive.drive(200, kmh: 15, turnDegrees: 180)
        let driven = drive.trueDistance
        drive.park(30)
        // The receiver saw none of it: only the fixes before and after the loop stay.
        let loopStart = drive.fixes[29].time!
        let loopEnd = try #require(drive.fixes.first { $0.time! > loopStart && $0.speed! < 0.5 && $0.time!.seconds(since: loopStart) > 30 }?.time)
        let fixes = drive.fixes.filter { $0.time! <= loopStart || $0.time! >= loopEnd }
        let trip = try recordedTrip(fixes, carSpeeds: drive.carSpeeds, until: drive.now)
        let gap = try #require(trip.gaps.first)
        #expect(gap.outcome == .carSpeed)
        #expect(abs(trip.measuredDistance - driven) / driven < 0.02, "driven \(driven) m, counted \(trip.measuredDistance) m")
    }
}
