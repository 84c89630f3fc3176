#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import TrackCore
import TrackInput
import Testing

/// A tunnel counted by the car's own speed: trackd reads a receiver on a pseudo-terminal that the test feeds a
/// simulated drive at its own pace, while ELM327-emulator's trackd car (Tests/ELM327/trackd_car.py) plays the same
/// drive's speed and odometer on the same clock.
@Suite(.serialized)
struct OBDTunnelTests {
    @Test func aTwoKilometreTunnelIsCountedByTheCarsSpeedAndTheTripIsWithinHalfAPercentOfTheTruth() async throws {
        // Parked, 400 m to 100 km/h, 2 km of curved tunnel slowing to 80 km/h without a fix, 300 m to a stop.
        var drive = DriveSimulator(start: UTCTime(iso8601: "2026-11-24T09:00:00Z")!, seed: 44)
        drive.park(5)
        drive.drive(400, kmh: 100, endKmh: 100)
        let before = drive.trueDistance
        drive.outage(80, turnDegrees: 70, endKmh: 80)
        let tunnel = drive.trueDistance - before
        drive.drive(300, kmh: 80)
        drive.park(5)
        let truth = drive.fixDistances.last! - drive.fixDistances.first!
        let odometer = 40000.0

        let folder = try TemporaryFolder()
        let recording = folder.file("tunnel.nmea")
        try Data(drive.fixes.map(\.nmeaEpoch).joined().utf8).write(to: URL(fileURLWithPath: recording))
        let emulator = try await ELM327Emulator.runningCar(odometer: odometer, in: folder.path)
        defer { emulator.stop() }
        let port = try #require(emulator.port)
        let receiver = try PseudoTerminal(linkPath: folder.file("gps0"))
        defer { receiver.close() }
        let daemon = try await Trackd.start(state: folder.path, source: "serial://\(folder.file("gps0"))?baud=115200",
                                            configuration: "obd:\n  adapter: tcp://127.0.0.1:\(port)\n")
        #expect(await OBDStatusTests.obd(of: daemon) { $0["odometer"] as? Double == odometer } != nil)
        #expect(try await trackctl(["--socket", daemon.socket, "start", "--business"]).status == 0)

        // The drive, at its own pace: the car plays it from `start`, the receiver's epochs go out at their times.
        let start = MonotonicTime.now.adding(seconds: 1)
        try emulator.follow(drive, odometer: odometer, from: start)
        try await TerminalWriter.play(drive.fixes[...], origin: drive.start, from: start, to: receiver.masterDescriptor)
        // (`reached` compares the text of the times: without the zone's Z, which sorts after a fraction's dot.)
        let last = String(drive.fixes.last!.time!.iso8601(fractionDigits: 0).dropLast())
        #expect(await daemon.reached(last), "\(daemon.process.output)")
        // The car stands: its odometer is read every 10 s.
        let endOdometer = (odometer * 10 + (drive.trueDistance / 100 + 1e-6).rounded(.down)) / 10
        #expect(await OBDStatusTests.obd(of: daemon) { $0["odometer"] as? Double == endOdometer } != nil)
        let stopped = try await trackctl(["--socket", daemon.socket, "stop"])
        #expect(stopped.status == 0, "\(stopped.error)")
        await daemon.stop()
        #expect(daemon.process.exitStatus == 0, "\(daemon.process.output)")

        let trip = try await query(daemon.database, """
            SELECT distance || ' ' || odometer_start || ' ' || odometer_start_source || ' ' || odometer_end || ' '
                || odometer_end_source || ' ' || gap_count FROM trip WHERE id = 1
            """).split(separator: " ").map(String.init)
        let distance = try #require(Double(trip.first ?? ""))
        #expect(trip.dropFirst() == ["\(odometer * 1000)", "car", "\(endOdometer * 1000)", "car", "1"], "\(trip)")
        #expect(abs(distance - truth) / truth < 0.005, "trip \(distance) m, driven \(truth) m")
        let outage = try await query(daemon.database, "SELECT detail FROM event WHERE kind = 'gap' AND trip_id = 1")
        #expect(outage.contains(": car_speed, "), "\(outage)")

        // The same drive replayed without the car: the tunnel bridged from the positions on either side.
        let replay = try #require(try json(await trackctl(["replay", "--json", recording]).output) as? [String: Any])
        let replayed = try #require(replay["distance_m"] as? Double)
        let gaps = try #require((replay["gaps"] as? [[String: Any]]))
        #expect(gaps.map { $0["outcome"] as? String } == ["curve"])
        print("""
            OBDTunnelTests: driven \(Int(truth.rounded())) m (tunnel \(Int(tunnel.rounded())) m); trackd with the \
            car's speed \(Int(distance.rounded())) m (\(percent(distance, truth))); trackctl replay without OBD \
            \(Int(replayed.rounded())) m (\(percent(replayed, truth))); \(outage)
            """)
    }

    private func percent(_ value: Double, _ truth: Double) -> String {
        String(format: "%+.2f %%", (value - truth) / truth * 100)
    }
}
