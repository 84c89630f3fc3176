#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// Each trip's odometer from the car: trackd with ELM327-emulator's trackd car (Tests/ELM327/trackd_car.py, which
/// has an odometer) over TCP, while a recorded drive plays as the GPS source.
@Suite(.serialized)
struct OBDOdometerTests {
    @Test func tripsStartAndEndAtTheCarsOdometerAndKilometresDrivenWithoutTrackdBecomeAnEntry() async throws {
        let folder = try TemporaryFolder()
        let emulator = try await ELM327Emulator.runningCar(odometer: 23456.7, in: folder.path)
        defer { emulator.stop() }
        let port = try #require(emulator.port)
        var car = emulator.car
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=4",
                                            configuration: "obd:\n  adapter: tcp://127.0.0.1:\(port)\n")
        func carOdometer(_ kilometres: Double) async -> Bool {
            await OBDStatusTests.obd(of: daemon) { $0["odometer"] as? Double == kilometres } != nil
        }
        #expect(await carOdometer(23456.7))

        // A trip driven: it starts at the car's odometer and ends at it.
        #expect(try await trackctl(["--socket", daemon.socket, "start", "--business"]).status == 0)
        car.odometer = 23459.3
        try emulator.drive(car)
        #expect(await carOdometer(23459.3))
        let stopped = try await trackctl(["--socket", daemon.socket, "stop", "--purpose", "Site visit"])
        #expect(stopped.status == 0, "\(stopped.error)")

        // 5 km driven while trackd did not record (the car lent out with the board unplugged, say): the next trip
        // starts at the car's odometer, and the difference is an entry of its own, as a dashboard reading makes it.
        car.odometer = 23464.3
        try emulator.drive(car)
        #expect(await carOdometer(23464.3))
        #expect(try await trackctl(["--socket", daemon.socket, "start", "--private"]).status == 0)
        car.odometer = 23465.0
        try emulator.drive(car)
        #expect(await carOdometer(23465.0))
        #expect(try await trackctl(["--socket", daemon.socket, "stop"]).status == 0)

        await daemon.stop()
        #expect(daemon.process.exitStatus == 0, "\(daemon.process.output)")
        let rows = try await Self.odometers(daemon.database)
        #expect(rows == """
            1 gps 23456700.0 car 23459300.0 car
            2 unrecorded 23459300.0 car 23464300.0 car
            3 gps 23464300.0 car 23465000.0 car
            """, "\(rows)")
        let readings = try await query(daemon.database, "SELECT value || ' ' || user || ' ' || reason FROM odometer_reading ORDER BY id")
        #expect(readings == """
            23456700.0 trackd (car) read from the car (OBD-II, PID A6) as a trip started
            23464300.0 trackd (car) read from the car (OBD-II, PID A6) as a trip started
            """, "\(readings)")
        let verify = try await trackctl(["--db", daemon.database, "verify"])
        #expect(verify.status == 0, "\(verify.output) \(verify.error)")
        let history = try await query(daemon.database, "SELECT new_value FROM revision WHERE trip_id = 2")
        #expect(history == "unrecorded 5.0 km (car 23464.3 km, log 23459.3 km)", "\(history)")
        // The drive's month, named: the trips are dated by the recording's GPS time, not today.
        let trips = try await trackctl(["--db", daemon.database, "--json", "trips", "--month", "2026-11"])
        #expect(trips.output.contains("\"odometer_start_source\":\"car\""), "\(trips.output)")
    }

    @Test func theTripAtBootWaitsForTheOdometerOfAStandingCarSoKilometresDrivenWithoutTrackdComeBeforeIt() async throws {
        let folder = try TemporaryFolder()
        try await Self.dashboardReading(23400, in: folder.path)

        // Since then the car was driven 56.7 km without trackd; now the board boots with the adapter in the car, the
        // car standing (the receiver reports the same place for half an hour) and the adapter searching 8 s for the
        // car's protocol: nothing but the car's reading ends the wait.
        let parked = "\(folder.path)/parked.nmea"
        try DriveLog.piece(of: DriveLog.demo, seconds: 0, to: parked)
        let daemon = try await Self.bootUntilTheTripStarts(in: folder.path, playing: parked, adapterSearch: 8)
        #expect(daemon.process.output.contains("the trip asked at boot waits for the car's odometer"), "\(daemon.process.output)")
        #expect(daemon.process.output.contains("because=the car's odometer was read"), "\(daemon.process.output)")

        // The 56.7 km are an entry before the trip, and the trip starts at the car's reading, not the dashboard's.
        let rows = try await Self.odometers(daemon.database)
        #expect(rows == """
            1 unrecorded 23400000.0 dashboard 23456700.0 car
            2 gps 23456700.0 car 23456700.0 car
            """, "\(rows)")
        let verify = try await trackctl(["--db", daemon.database, "verify"])
        #expect(verify.status == 0, "\(verify.output) \(verify.error)")
    }

    @Test func theTripAtBootStartsAsTheCarMovesWhenTheOdometerIsStillToCome() async throws {
        let folder = try TemporaryFolder()
        try await Self.dashboardReading(23400, in: folder.path)

        // The adapter searches 15 s for the car's protocol (a slow-init car) while the car drives off at once: the
        // trip starts as the car moves, at the log's odometer, rather than leave the metres driven meanwhile to the
        // car's reading and the GPS both.
        let moving = "\(folder.path)/moving.nmea"
        try DriveLog.cut(DriveLog.demo, after: 8 * 3600 + 20, to: moving)
        let daemon = try await Self.bootUntilTheTripStarts(in: folder.path, playing: moving, adapterSearch: 15)
        #expect(daemon.process.output.contains("because=the car moves before its odometer was read"), "\(daemon.process.output)")

        // One trip, from the dashboard's reading: the 56.7 km become an entry once the car's reading comes at a start.
        let rows = try await Self.odometers(daemon.database)
        #expect(rows.hasPrefix("1 gps 23400000.0 dashboard "), "\(rows)")
        #expect(!rows.contains("\n"), "\(rows)")
    }

    /// The board booted with trackd's car (23 456.7 km, its adapter searching `adapterSearch` seconds for the
    /// protocol) and `recording` as the receiver, `--auto-start business`: trackd stopped once the trip has started.
    private static func bootUntilTheTripStarts(in folder: String, playing recording: String,
                                               adapterSearch: Double) async throws -> Trackd {
        let emulator = try await ELM327Emulator.runningCar(odometer: 23456.7, in: folder)
        defer { emulator.stop() }
        var car = emulator.car
        car.searchSeconds = adapterSearch
        try emulator.drive(car)
        let port = try #require(emulator.port)
        let daemon = try await Trackd.start(state: folder, source: "file://\(recording)?speed=4", autoStart: "business",
                                            configuration: "obd:\n  adapter: tcp://127.0.0.1:\(port)\n", run: 1)
        #expect(await poll(upTo: 60) { await daemon.status()?["trip"] != nil }, "\(daemon.process.output)")
        await daemon.stop()
        #expect(daemon.process.exitStatus == 0, "\(daemon.process.output)")
        return daemon
    }

    /// A dashboard's reading of `kilometres` in the log at `folder`, set the last time trackd ran (without an adapter).
    private static func dashboardReading(_ kilometres: Int, in folder: String) async throws {
        let before = try await Trackd.start(state: folder, source: "file://\(DriveLog.demo)?speed=4")
        let set = try await trackctl(["--socket", before.socket, "odometer", "set", "\(kilometres)", "--reason", "dashboard"])
        #expect(set.status == 0, "\(set.error)")
        await before.stop()
    }

    /// Each entry's number, source, odometer at both ends and where each came from, a line each.
    private static func odometers(_ database: String) async throws -> String {
        try await query(database, """
            SELECT id || ' ' || source || ' ' || odometer_start || ' ' || ifnull(odometer_start_source, '-') || ' '
                || odometer_end || ' ' || ifnull(odometer_end_source, '-') FROM trip ORDER BY id
            """)
    }
}
