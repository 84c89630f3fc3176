#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import TrackCore
import TrackInput
import Testing

/// trackd with an OBD-II adapter in trackd.conf: ELM327-emulator (scripts/elm327-emulator) on a pseudo-terminal
/// or a loopback TCP port, while a recorded drive plays as the GPS source.
@Suite(.serialized)
struct OBDStatusTests {
    /// Waits until `trackctl --json status` has an `obd` object for which `condition` holds: that object, or `nil`
    /// (and an issue recorded at the caller, with the last object seen) when it never came.
    static func obd(of daemon: Trackd, upTo seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation,
                    until condition: @escaping ([String: Any]) -> Bool) async -> [String: Any]? {
        var last: [String: Any]?
        let held = await poll(upTo: seconds) {
            last = await daemon.status()?["obd"] as? [String: Any]
            return last.map(condition) ?? false
        }
        if !held {
            Issue.record("the OBD status never came to hold the condition; the last one: \(last ?? [:])",
                         sourceLocation: sourceLocation)
        }
        return held ? last : nil
    }

    @Test func showsTheEmulatorsDefaultCarInStatus() async throws {
        let folder = try TemporaryFolder()
        let emulator = try await ELM327Emulator(link: .pseudoTerminal, in: folder.path)
        defer { emulator.stop() }
        let device = try #require(emulator.devicePath)
        let daemon = try await Trackd.start(
            state: folder.path, source: "file://\(DriveLog.demo)?speed=4", autoStart: "business",
            configuration: "obd:\n  adapter: serial://\(device)\n")

        let obd = try #require(await Self.obd(of: daemon) { $0["vin"] != nil && $0["rpm"] != nil && $0["volts"] != nil })
        #expect(obd["address"] as? String == "serial://\(device)?baud=38400")
        #expect(obd["state"] as? String == "connected")
        #expect(obd["detail"] as? String == "\(device) at 38400 baud")
        #expect(obd["adapter"] as? String == "ELM327 v1.5")
        #expect(obd["protocol"] as? String == "AUTO, ISO 15765-4 (CAN 11/500)")
        #expect(obd["vin"] as? String == "WP0ZZZ99ZTS390000")
        #expect(obd["car"] as? String == "answering")
        // The emulator's default car has no odometer (PID A6: NO DATA); status says so rather than showing one.
        #expect(obd["odometer_supported"] as? Bool == false)
        #expect(obd["odometer"] == nil)
        #expect((obd["rpm"] as? Double).map { $0 > 0 } == true)
        #expect(obd["speed"] is Double)
        #expect((obd["volts"] as? Double).map { (12...15).contains($0) } == true)

        let text = try await trackctl(["--socket", daemon.socket, "status"])
        #expect(text.status == 0)
        #expect(text.output.contains("  obd      connected serial://\(device)?baud=38400: \(device) at 38400 baud · ELM327 v1.5 · AUTO, ISO 15765-4 (CAN 11/500)"),
                "\(text.output)")
        #expect(text.output.contains("  car      answering · engine running · VIN WP0ZZZ99ZTS390000 · no odometer (PID A6) · "), "\(text.output)")
        #expect(daemon.process.output.contains("car does not report its odometer (PID A6)"), "said once in the journal")

        // trackctl watch follows the car as it is read.
        let watcher = try TestSubprocess(executable: Products.trackctl, arguments: ["--socket", daemon.socket, "watch"],
                                         outputPath: folder.file("watch.txt"))
        #expect(await poll(upTo: 30) { watcher.output.components(separatedBy: "car answering · engine running · VIN WP0ZZZ99ZTS390000").count > 2 },
                "\(watcher.output.suffix(600))")
        #expect(watcher.output.contains("obd connected serial://\(device)?baud=38400"), "\(watcher.output.suffix(600))")
        _ = try? await offload { watcher.stop() }

        await daemon.stop()
        #expect(daemon.process.exitStatus == 0, "\(daemon.process.output)")
        let output = daemon.process.output
        #expect(output.components(separatedBy: "car does not report its odometer").count == 2, "\(output)")
        #expect(output.contains("OBD adapter connected"))
        #expect(output.contains("car identified"))
    }

    @Test func autoFindsTheAdapterByAskingAndStatusSaysWhichAndWhy() async throws {
        let folder = try TemporaryFolder()
        let emulator = try await ELM327Emulator(link: .pseudoTerminal, in: folder.path)
        defer { emulator.stop() }
        // The folder auto looks in (TRACKD_OBD_DEVICES) stands for /dev: the receiver's port, linked as udev's GPS
        // rules link one, and the adapter on the next USB-serial port.
        let devices = folder.file("dev")
        try FileManager.default.createDirectory(atPath: devices, withIntermediateDirectories: true)
        let receiver = try PseudoTerminal(linkPath: "\(devices)/ttyUSB0")
        defer { receiver.close() }
        try FileManager.default.createSymbolicLink(atPath: "\(devices)/gps0", withDestinationPath: "\(devices)/ttyUSB0")
        try FileManager.default.createSymbolicLink(atPath: "\(devices)/ttyUSB1",
                                                   withDestinationPath: try #require(emulator.devicePath))
        let daemon = try await Trackd.start(
            state: folder.path, source: "file://\(DriveLog.demo)?speed=4", autoStart: "business",
            configuration: "obd:\n  adapter: auto\n", environment: ["TRACKD_OBD_DEVICES": devices])

        let obd = try #require(await Self.obd(of: daemon) { $0["vin"] != nil && $0["state"] as? String == "connected" })
        #expect(obd["address"] as? String == "auto")
        #expect(obd["chosen"] as? String == "serial://\(devices)/ttyUSB1?baud=38400")
        #expect(obd["reason"] as? String == "ELM327 v1.5 answered at 38400 baud on \(devices)/ttyUSB1; "
                + "\(devices)/ttyUSB0: the receiver's (\(devices)/gps0)")
        #expect(obd["adapter"] as? String == "ELM327 v1.5")
        #expect(obd["vin"] as? String == "WP0ZZZ99ZTS390000")

        let text = try await trackctl(["--socket", daemon.socket, "status"])
        #expect(text.status == 0)
        #expect(text.output.contains("  found    serial://\(devices)/ttyUSB1?baud=38400: ELM327 v1.5 answered at 38400 baud on "
                                     + "\(devices)/ttyUSB1; \(devices)/ttyUSB0: the receiver's (\(devices)/gps0)"), "\(text.output)")
        await daemon.stop()
        #expect(daemon.process.exitStatus == 0, "\(daemon.process.output)")
        #expect(daemon.process.output.contains("OBD adapter found"), "said in the journal")
    }

    @Test func aReloadNamesAnAdapterAndAnUnpluggedOneIsSaidAndFoundAgain() async throws {
        let folder = try TemporaryFolder()
        let emulator = try await ELM327Emulator(link: .tcp, car: .trackd, in: folder.path)
        defer { emulator.stop() }
        let port = try #require(emulator.port)
        var car = ELM327Emulator.CarState()
        car.odometer = 23456.7
        car.rpm = 1800
        car.speed = 50
        car.volts = 14.2
        try emulator.drive(car)
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=4", autoStart: "business")
        #expect(await daemon.status()?["obd"] == nil, "no adapter configured")
        // The same drive into a trackd without an adapter, for the track points: the adapter's comings and goings
        // must cost none.
        let plainFolder = try TemporaryFolder()
        let plain = try await Trackd.start(state: plainFolder.path, source: "file://\(DriveLog.demo)?speed=4", autoStart: "business")

        // Named by a reload.
        try Data("obd:\n  adapter: tcp://127.0.0.1:\(port)\n".utf8).write(to: URL(fileURLWithPath: "\(daemon.state)/trackd.yaml"))
        daemon.send(SIGHUP)
        // Each value arrives on its own answer, in the reader's round: wait until all four have been read.
        let obd = try #require(await Self.obd(of: daemon) {
            $0["odometer"] != nil && $0["speed"] != nil && $0["rpm"] != nil && $0["volts"] != nil
        })
        #expect(obd["odometer"] as? Double == 23456.7)
        #expect(obd["speed"] as? Double == 50)
        #expect(obd["odometer_supported"] as? Bool == true)
        #expect(obd["rpm"] as? Double == 1800)
        #expect(obd["volts"] as? Double == 14.2)
        #expect(daemon.process.output.contains("applied=obd"), "\(daemon.process.output)")

        // Unplugged: trackd says so and goes on by GPS.
        let tripBefore = try #require(await daemon.status()?["trip"] as? [String: Any])
        let unpluggedAt = try #require((await daemon.status()?["last_fix"] as? [String: Any])?["time"] as? String)
        emulator.stop()
        let lost = try #require(await Self.obd(of: daemon) { $0["state"] as? String == "lost" })
        #expect(lost["speed"] == nil && lost["rpm"] == nil, "nothing read before holds: \(lost)")
        #expect(await poll(upTo: 30) { daemon.process.output.contains("OBD adapter lost") })
        let distanceBefore = try #require(tripBefore["distance_m"] as? Double)
        #expect(await poll(upTo: 60) {
            guard let trip = await daemon.status()?["trip"] as? [String: Any], let distance = trip["distance_m"] as? Double
            else { return false }
            return distance > distanceBefore + 100
        }, "the trip goes on by GPS")

        // Back on the same address.
        let back = try await ELM327Emulator(link: .tcp, car: .trackd, in: folder.path, tcpPort: port)
        defer { back.stop() }
        car.odometer = 23460.1
        try back.drive(car)
        #expect(await Self.obd(of: daemon) { $0["state"] as? String == "connected" && $0["odometer"] as? Double == 23460.1 } != nil)

        // Taken away by a reload.
        try Data("".utf8).write(to: URL(fileURLWithPath: "\(daemon.state)/trackd.yaml"))
        daemon.send(SIGHUP)
        #expect(await poll(upTo: 30) { await daemon.status().map { $0["obd"] == nil } ?? false })

        await daemon.stop()
        #expect(daemon.process.exitStatus == 0, "\(daemon.process.output)")

        // Every track point the trackd without an adapter stored up to the last one of this trackd's, this one stored
        // too: the same times and positions.
        let last = try #require(Int64(try await query(daemon.database, "SELECT max(time_ms) FROM track_point WHERE trip_id = 1")
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        let lastTime = UTCTime(nanosecondsSinceEpoch: last * 1_000_000)
        #expect(await plain.reached(String(lastTime.iso8601(fractionDigits: 0).dropLast())), "\(plain.process.output)")
        await plain.stop()
        let points = "SELECT time_ms || ' ' || lat_e7 || ' ' || lon_e7 FROM track_point WHERE trip_id = 1 AND time_ms <= \(last) ORDER BY seq"
        let withAdapter = try await query(daemon.database, points)
        let withoutAdapter = try await query(plain.database, points)
        // (They reach past the unplugging: the comparison covers the outage.)
        let unplugged = try #require(UTCTime(iso8601: unpluggedAt)).nanosecondsSinceEpoch / 1_000_000
        #expect(last > unplugged, "the last point \(lastTime), the adapter unplugged at \(unpluggedAt)")
        #expect(!withAdapter.isEmpty)
        #expect(withAdapter == withoutAdapter, "the adapter's outage cost track points")

        let output = daemon.process.output
        // Once per outage: never two losses without a connection between them (an emulator that is dying may still
        // accept one connection, which makes a second, short outage).
        let links = output.split(separator: "\n").compactMap { line -> String? in
            line.contains("OBD adapter lost") ? "lost" : line.contains("OBD adapter connected") ? "connected" : nil
        }
        #expect(links.first == "connected" && links.last == "connected" && links.contains("lost"), "\(links)")
        #expect(!zip(links, links.dropFirst()).contains { $0 == "lost" && $1 == "lost" }, "\(links)")
    }
}
