#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// The car the log belongs to: the first car trackd meets through the adapter gives the log its VIN; another car's
/// odometer is kept out of the log until the profile names that car. ELM327-emulator's trackd car over TCP (its
/// VIN is the default car's, WP0ZZZ99ZTS390000), the demo drive as the GPS source.
@Suite(.serialized)
struct OBDCarIdentityTests {
    static let vin = "WP0ZZZ99ZTS390000"
    static let otherVIN = "WVWZZZ1JZXW000001"

    @Test func theFirstCarGivesTheLogItsVINAndAnotherCarsOdometerIsKeptOutOfTheLog() async throws {
        let folder = try TemporaryFolder()
        let emulator = try await ELM327Emulator.runningCar(odometer: 23456.7, in: folder.path)
        defer { emulator.stop() }
        let port = try #require(emulator.port)
        var car = emulator.car
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=4",
                                            configuration: "obd:\n  adapter: tcp://127.0.0.1:\(port)\n")
        func profileVIN() async throws -> String? {
            (try json(await trackctl(["--socket", daemon.socket, "--json", "profile"]).output) as? [String: Any])?["vin"] as? String
        }
        #expect(await poll(upTo: 60) { (try? await profileVIN()) == Self.vin }, "\(daemon.process.output)")
        let history = try await query(daemon.database, "SELECT field || ' ' || new_value || ' ' || user FROM revision")
        #expect(history == "vin \(Self.vin) trackd (car)", "\(history)")

        // The log belongs to another car: this one is said to be another (at once to a watcher too), and its
        // odometer stays out of the log.
        let watcher = try TestSubprocess(executable: Products.trackctl, arguments: ["--socket", daemon.socket, "watch"],
                                         outputPath: folder.file("watch.txt"))
        defer { watcher.stop() }
        // (Subscribed once it shows the fixes.)
        #expect(await poll(upTo: 30) { watcher.output.contains("km/h") }, "\(watcher.output.suffix(300))")
        let set = try await trackctl(["--socket", daemon.socket, "profile", "set", "--vin", Self.otherVIN, "--reason", "the log's car"])
        #expect(set.status == 0, "\(set.error)")
        #expect(await OBDStatusTests.obd(of: daemon) { $0["log_vin"] as? String == Self.otherVIN } != nil)
        let status = try await trackctl(["--socket", daemon.socket, "status"])
        #expect(status.output.contains("another car than the log's (\(Self.otherVIN))"), "\(status.output)")
        #expect(daemon.process.output.contains("another car"), "\(daemon.process.output)")
        #expect(await poll(upTo: 30) { watcher.output.contains("another car than the log's (\(Self.otherVIN))") },
                "\(watcher.output.suffix(600))")
        #expect(try await trackctl(["--socket", daemon.socket, "start", "--business"]).status == 0)
        car.odometer = 23460.0
        try emulator.drive(car)
        #expect(await OBDStatusTests.obd(of: daemon) { $0["odometer"] as? Double == 23460.0 } != nil)
        #expect(try await trackctl(["--socket", daemon.socket, "stop"]).status == 0)

        // The log moved to this car: its odometer is the log's again.
        let back = try await trackctl(["--socket", daemon.socket, "profile", "set", "--vin", Self.vin, "--reason", "moved"])
        #expect(back.status == 0, "\(back.error)")
        #expect(await OBDStatusTests.obd(of: daemon) { $0["log_vin"] == nil && $0["vin"] as? String == Self.vin } != nil)
        car.odometer = 23461.0
        try emulator.drive(car)
        #expect(await OBDStatusTests.obd(of: daemon) { $0["odometer"] as? Double == 23461.0 } != nil)
        #expect(try await trackctl(["--socket", daemon.socket, "start", "--business"]).status == 0)
        #expect(try await trackctl(["--socket", daemon.socket, "stop"]).status == 0)

        await daemon.stop()
        #expect(daemon.process.exitStatus == 0, "\(daemon.process.output)")
        let trips = try await query(daemon.database, """
            SELECT id || ' ' || ifnull(odometer_start_source, '-') || ' ' || ifnull(odometer_start, '-') FROM trip ORDER BY id
            """)
        #expect(trips == "1 - -\n2 car 23461000.0", "\(trips)")
        let verify = try await trackctl(["--db", daemon.database, "verify"])
        #expect(verify.status == 0, "\(verify.output) \(verify.error)")
    }
}
