#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import TrackCore
import Testing

/// `auto_start_on: ignition`, for a board that stays powered: trips start when the engine starts and close once it
/// has been off for `ignition_off_after`. The engine is ELM327-emulator's trackd car (Tests/ELM327/trackd_car.py)
/// over TCP; the GPS plays the last 6 minutes of the demo drive (into town, then parked) and an hour parked, at 8×.
@Suite(.serialized)
struct OBDIgnitionTests {
    @Test func theEngineStartsTheTripAStandstillWithTheEngineRunningKeepsItAndTheEngineOffClosesItWhereTheCarStopped() async throws {
        let folder = try TemporaryFolder()
        let drive = folder.file("arrive-and-park.nmea")
        try DriveLog.cut(DriveLog.demo, after: 8 * 3600 + 15 * 60 + 57 - 360, to: drive)
        try DriveLog.appendParking(to: drive, seconds: 3600)
        let emulator = try await ELM327Emulator(link: .tcp, car: .trackd, in: folder.path)
        defer { emulator.stop() }
        let port = try #require(emulator.port)
        var car = ELM327Emulator.CarState()
        car.engine = false
        car.volts = 12.3
        try emulator.drive(car)
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(drive)?speed=8", configuration: """
            daemon:
              auto_start: business
              auto_start_on: ignition
              ignition_off_after: 10
            obd:
              adapter: tcp://127.0.0.1:\(port)
            """)
        // Powered, engine off: no trip.
        #expect(await OBDStatusTests.obd(of: daemon) { $0["engine_running"] as? Bool == false } != nil)
        #expect(await daemon.status()?["trip"] == nil, "no trip at boot with auto_start_on: ignition")

        // The engine starts: a trip.
        car.engine = true
        car.rpm = 820
        car.volts = 14.2
        try emulator.drive(car)
        let started = ContinuousClock.now
        #expect(await poll(upTo: 30) { await daemon.status()?["trip"] != nil }, "\(daemon.process.output)")
        print("OBDIgnitionTests: the trip ran \(ContinuousClock.now - started) after the engine started")

        // The car arrives and stands with the engine running (a traffic light, a queue): the trip goes on for more
        // than ignition_off_after.
        #expect(await poll(upTo: 120) { (await daemon.status()?["motion"] as? [String: Any])?["state"] as? String == "stationary" })
        let standing = try #require(await daemon.status()?["last_fix"] as? [String: Any])
        let standingTime = try #require(standing["time"] as? String)
        // Twice ignition_off_after (10 s) of real time at 8×.
        let later = try #require(UTCTime(iso8601: standingTime)).adding(seconds: 8 * 10 * 2)
        #expect(await daemon.reached(later.iso8601(fractionDigits: 0)), "the recording plays on")
        #expect(await daemon.status()?["trip"] != nil, "a standstill with the engine running does not end the trip")

        // The engine stops: the trip closes once it has been off for 10 s, where the car came to rest.
        car.engine = false
        car.rpm = 0
        car.volts = 12.4
        try emulator.drive(car)
        #expect(await poll(upTo: 60) { await daemon.status().map { $0["trip"] == nil } ?? false }, "\(daemon.process.output)")
        let motionSince = try #require((await daemon.status()?["motion"] as? [String: Any])?["since"] as? String)

        await daemon.stop()
        #expect(daemon.process.exitStatus == 0, "\(daemon.process.output)")
        let row = try await query(daemon.database, "SELECT state || ' ' || kind || ' ' || end_reason || ' ' || end_time FROM trip")
        let fields = row.split(separator: " ").map(String.init)
        #expect(fields.prefix(3) == ["closed", "business", "ignition-off"], "\(row)")
        // Ended where the car came to rest (the engine's standstill), not a minute and more later when trackd closed it.
        let end = try #require(fields.last.flatMap { UTCTime(iso8601: $0) })
        let rest = try #require(UTCTime(iso8601: motionSince))
        #expect(abs(end.seconds(since: rest)) < 15, "end \(end), at rest since \(rest)")
        let start = try await query(daemon.database, "SELECT start_time FROM trip")
        #expect(try #require(UTCTime(iso8601: start)) < rest, "the trip started while the car drove: \(start)")
        #expect(daemon.process.output.contains("engine started"))
        #expect(daemon.process.output.contains("closing the trip: the engine has been off"))
    }
}
