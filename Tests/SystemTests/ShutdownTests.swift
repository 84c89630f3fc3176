#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing
import TrackInput

/// Ignition off in every state a car is switched off in: trackd on a receiver behind a real pseudo-terminal,
/// stopped with a real SIGTERM (systemd) or SIGINT (Ctrl-C), exits 0, closes the trip that runs at its last fix
/// and says so in its log, and leaves no trip open in a file that passes SQLite's check and `trackctl verify`.
/// Each test waits for the state it stops in (polling the status), never for a fixed time.
@Suite(.serialized)
struct ShutdownTests {
    static let signals = [SIGTERM, SIGINT]
    /// Without a trip (the tracker has nothing to close and used to end before its turn) and with one.
    static let autoStarts: [String?] = [nil, "business"]

    @Test(arguments: signals, autoStarts)
    func stopsCleanlyBeforeTheFirstFix(signal: Int32, autoStart: String?) async throws {
        let folder = try TemporaryFolder()
        // A receiver that is plugged in and says nothing yet (a cold start).
        let terminal = try PseudoTerminal(linkPath: folder.file("gps0"))
        defer { terminal.close() }
        let daemon = try await Trackd.start(state: folder.path, source: "serial://\(folder.file("gps0"))?baud=9600",
                                            autoStart: autoStart)
        #expect(await waitForSource(daemon, "connected"), "\(daemon.process.output)")
        let trip = try await expectCleanStop(daemon, signal)
        expectClosedAtShutdown(trip, daemon, ifStarted: autoStart)
    }

    @Test(arguments: signals)
    func stopsCleanlyWithNoTripRunning(signal: Int32) async throws {
        let folder = try TemporaryFolder()
        let receiver = try Receiver(playing: DriveLog.demo, in: folder, speed: 20)
        defer { receiver.unplug() }
        let daemon = try await Trackd.start(state: folder.path, source: receiver.address)
        #expect(await waitForFixes(daemon), "\(daemon.process.output)")
        let trip = try await expectCleanStop(daemon, signal)
        #expect(trip == nil, "no trip was started")
        #expect(daemon.process.output.contains("no trip running at shutdown"), "\(daemon.process.output)")
    }

    @Test(arguments: signals)
    func closesTheRunningTripAtItsLastFixAndSaysSo(signal: Int32) async throws {
        let folder = try TemporaryFolder()
        let receiver = try Receiver(playing: DriveLog.demo, in: folder, speed: 20)
        defer { receiver.unplug() }
        let daemon = try await Trackd.start(state: folder.path, source: receiver.address, autoStart: "business")
        #expect(await waitForDistance(daemon, above: 200), "\(daemon.process.output)")
        let seen = try #require((await daemon.status()?["last_position"] as? [String: Any])?["time"] as? String)
        let trip = try #require(try await expectCleanStop(daemon, signal))
        #expect(trip["end_reason"] as? String == "shutdown")
        #expect(trip["distance_m"] as? Double ?? 0 > 200)
        // Closed at its last fix: no earlier than the last fix seen before the stop, nor than its last stored point.
        let end = try #require(trip["end"] as? String)
        #expect(end >= seen, "end \(end), a fix at \(seen) came before the stop")
        let lastStored = try await query(daemon.database, "SELECT max(time_ms) FROM track_point WHERE trip_id = 1")
        let endMilliseconds = try #require(ISO8601DateFormatter.withFraction.date(from: end)).timeIntervalSince1970 * 1000
        #expect(Double(lastStored.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .infinity <= endMilliseconds,
                "end \(end), last stored point at \(lastStored) ms")
        let said = daemon.process.output.split(separator: "\n").first { $0.contains("trip ended at shutdown") } ?? ""
        #expect(said.contains("trip=1") && said.contains("distance_m=") && said.contains("end=2026-11-22T"), "\(said)")
    }

    @Test(arguments: signals)
    func stopsCleanlyJustAfterTheDriverStoppedTheTrip(signal: Int32) async throws {
        let folder = try TemporaryFolder()
        let receiver = try Receiver(playing: DriveLog.demo, in: folder, speed: 20)
        defer { receiver.unplug() }
        let daemon = try await Trackd.start(state: folder.path, source: receiver.address, autoStart: "business")
        #expect(await waitForDistance(daemon, above: 100), "\(daemon.process.output)")
        let stopped = try await trackctl(["--socket", daemon.socket, "stop", "--purpose", "Visit to Example Ltd"])
        #expect(stopped.status == 0, "\(stopped.error)")
        let trip = try #require(try await expectCleanStop(daemon, signal))
        #expect(trip["end_reason"] as? String == "stopped", "the driver's stop stands")
        #expect(daemon.process.output.contains("no trip running at shutdown"), "\(daemon.process.output)")
    }

    @Test(arguments: signals)
    func stopsCleanlyWithATripIdleForTwoHours(signal: Int32) async throws {
        let folder = try TemporaryFolder()
        // The end of the drive, then the car parked for over two hours (GPS time), played as fast as trackd reads.
        let drive = folder.file("parked.nmea")
        try DriveLog.cut(DriveLog.demo, after: 8 * 3600 + 15 * 60, to: drive)
        try DriveLog.appendParking(to: drive, seconds: 7_300)
        let receiver = try Receiver(playing: drive, in: folder, speed: 0)
        defer { receiver.unplug() }
        let daemon = try await Trackd.start(state: folder.path, source: receiver.address, autoStart: "business")
        let idle = await poll(upTo: 120) {
            (await daemon.status()?["trip"] as? [String: Any])?["idle_alerts"] as? Int ?? 0 >= 1
        }
        #expect(idle, "\(daemon.process.output)")
        let trip = try #require(try await expectCleanStop(daemon, signal))
        #expect(trip["idle_alerts"] as? Int == 1)
        #expect(trip["end_reason"] as? String == "shutdown")
    }

    @Test(arguments: signals, autoStarts)
    func stopsCleanlyWhileTheReceiverIsMissing(signal: Int32, autoStart: String?) async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "serial://\(folder.file("unplugged"))?baud=9600",
                                            autoStart: autoStart)
        #expect(await waitForSource(daemon, "lost"), "\(daemon.process.output)")
        let trip = try await expectCleanStop(daemon, signal)
        expectClosedAtShutdown(trip, daemon, ifStarted: autoStart)
    }

    @Test(arguments: signals)
    func stopsCleanlyAfterTheReceiverWentMidDrive(signal: Int32) async throws {
        let folder = try TemporaryFolder()
        let receiver = try Receiver(playing: DriveLog.demo, in: folder, speed: 20)
        let daemon = try await Trackd.start(state: folder.path, source: receiver.address, autoStart: "business")
        #expect(await waitForDistance(daemon, above: 200), "\(daemon.process.output)")
        receiver.unplug()
        #expect(await waitForSource(daemon, "lost"), "\(daemon.process.output)")
        let trip = try #require(try await expectCleanStop(daemon, signal))
        #expect(trip["distance_m"] as? Double ?? 0 > 200)
    }

    @Test(arguments: signals, autoStarts)
    func stopsCleanlyWhileGpsdIsNotRunning(signal: Int32, autoStart: String?) async throws {
        let folder = try TemporaryFolder()
        let port = try LoopbackPort.free()
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:\(port)", autoStart: autoStart)
        let waiting = await poll(upTo: 30) {
            ((await daemon.status()?["source"] as? [String: Any])?["detail"] as? String)?.hasPrefix("waiting for gpsd") == true
        }
        #expect(waiting, "\(daemon.process.output)")
        let trip = try await expectCleanStop(daemon, signal)
        expectClosedAtShutdown(trip, daemon, ifStarted: autoStart)
    }

    @Test(arguments: signals, autoStarts)
    func stopsCleanlyDuringAReload(signal: Int32, autoStart: String?) async throws {
        let folder = try TemporaryFolder()
        let receiver = try Receiver(playing: DriveLog.demo, in: folder, speed: 20)
        defer { receiver.unplug() }
        let daemon = try await Trackd.start(state: folder.path, source: receiver.address, autoStart: autoStart,
                                            configuration: "engine:\n  idle_alert_after: 3600\n")
        #expect(await waitForFixes(daemon), "\(daemon.process.output)")
        // A reload that is seen through, then one the stop comes in the middle of.
        daemon.send(SIGHUP)
        #expect(await poll(upTo: 30) { daemon.process.output.contains("configuration reloaded") }, "\(daemon.process.output)")
        try Data("engine:\n  idle_alert_after: 1800\n".utf8).write(to: URL(fileURLWithPath: folder.file("trackd.yaml")))
        daemon.send(SIGHUP)
        let trip = try await expectCleanStop(daemon, signal)
        expectClosedAtShutdown(trip, daemon, ifStarted: autoStart)
    }

    @Test(arguments: signals, autoStarts)
    func stopsCleanlyWithWatchersConnectedAndTellsThemWhatEnded(signal: Int32, autoStart: String?) async throws {
        let folder = try TemporaryFolder()
        let receiver = try Receiver(playing: DriveLog.demo, in: folder, speed: 20)
        defer { receiver.unplug() }
        let daemon = try await Trackd.start(state: folder.path, source: receiver.address, autoStart: autoStart)
        let watchers = try (0..<3).map { index in
            try TestSubprocess(executable: Products.trackctl, arguments: ["--socket", daemon.socket, "watch", "--json"],
                               outputPath: folder.file("watch-\(index).log"))
        }
        defer { watchers.forEach { $0.stop() } }
        // Every watcher sees fixes before the stop.
        let watching = await poll(upTo: 30) {
            watchers.allSatisfy { watcher in
                ((try? String(contentsOfFile: watcher.outputPath, encoding: .utf8)) ?? "").contains("\"class\":\"TPV\"")
            }
        }
        #expect(watching, "\(watchers.map(\.output))")
        let trip = try await expectCleanStop(daemon, signal)
        expectClosedAtShutdown(trip, daemon, ifStarted: autoStart)
        for watcher in watchers {
            #expect(await poll(upTo: 30) { !watcher.isRunning }, "a watcher ends with the daemon")
            #expect(watcher.exitStatus == 0, "\(watcher.output)")
            if autoStart != nil {
                #expect(watcher.output.contains("\"ended\""), "the watcher heard the trip end: \(watcher.output.suffix(400))")
            }
        }
    }

    @Test(arguments: signals)
    func aSecondSignalDuringASlowStopDoesNotLoseTheTrip(signal: Int32) async throws {
        let folder = try TemporaryFolder()
        let receiver = try Receiver(playing: DriveLog.demo, in: folder, speed: 20)
        defer { receiver.unplug() }
        let daemon = try await Trackd.start(state: folder.path, source: receiver.address, autoStart: "business")
        #expect(await waitForDistance(daemon, above: 200), "\(daemon.process.output)")
        // Another program holds the log's write lock (sqlite3 on the board), so the close at the stop waits for it.
        let lock = try DatabaseLock(daemon.database, in: folder, exclusive: true)
        #expect(await lock.waitUntilHeld(), "\(lock.output)")
        daemon.send(signal)
        // The stop is under way (the tracker has ended the trip and waits to write its close): signal again.
        #expect(await poll(upTo: 30) { daemon.process.output.contains("trip ended at shutdown") }, "\(daemon.process.output)")
        daemon.send(SIGTERM)
        daemon.send(SIGINT)
        #expect(daemon.process.isRunning, "the second signal did not kill trackd")
        await lock.release()
        let trip = try #require(try await expectCleanStop(daemon, nil))
        #expect(trip["end_reason"] as? String == "shutdown")
        #expect(trip["distance_m"] as? Double ?? 0 > 200)
    }

    // MARK: - Helpers

    /// A receiver on a pseudo-terminal behind a link in `folder`: `trackctl play` sends a log at `speed`× its pace.
    private struct Receiver {
        let link: String
        let player: TestSubprocess
        var address: String { "serial://\(link)?baud=9600" }

        init(playing log: String, in folder: TemporaryFolder, speed: Double) throws {
            link = folder.file("gps0")
            player = try TestSubprocess(executable: Products.trackctl,
                                        arguments: ["play", log, "--link", link, "--speed", "\(speed)"],
                                        outputPath: folder.file("play.log"))
            let link = link
            guard waitUntil(upTo: 30, { FileManager.default.fileExists(atPath: link) }) else {
                throw SubprocessError("the player made no terminal: \(player.output)")
            }
        }

        /// Pulls the plug: the player stops, its terminal closes and the link goes.
        func unplug() {
            player.stop()
        }
    }

    /// With a trip started (`autoStart`), it was closed at the stop and the log says so; without, the log says none ran.
    private func expectClosedAtShutdown(_ trip: [String: Any]?, _ daemon: Trackd, ifStarted autoStart: String?,
                                        sourceLocation: SourceLocation = #_sourceLocation) {
        if autoStart != nil {
            #expect(trip?["end_reason"] as? String == "shutdown", "\(trip ?? [:])", sourceLocation: sourceLocation)
            #expect(daemon.process.output.contains("trip ended at shutdown"), "\(daemon.process.output)",
                    sourceLocation: sourceLocation)
        } else {
            #expect(trip == nil, "no trip was started: \(trip ?? [:])", sourceLocation: sourceLocation)
            #expect(daemon.process.output.contains("no trip running at shutdown"), "\(daemon.process.output)",
                    sourceLocation: sourceLocation)
        }
    }

    /// Waits until trackd's source is in `state` (`connected`, `lost`).
    private func waitForSource(_ daemon: Trackd, _ state: String) async -> Bool {
        await poll(upTo: 30) { (await daemon.status()?["source"] as? [String: Any])?["state"] as? String == state }
    }

    /// Waits until trackd has fixes with a position.
    private func waitForFixes(_ daemon: Trackd) async -> Bool {
        await poll(upTo: 60) { await daemon.status()?["last_position"] != nil }
    }

    /// Waits until the running trip has covered `metres`.
    private func waitForDistance(_ daemon: Trackd, above metres: Double) async -> Bool {
        await poll(upTo: 90) {
            (await daemon.status()?["trip"] as? [String: Any])?["distance_m"] as? Double ?? 0 > metres
        }
    }

    /// Sends `signal` (if any) and checks what a clean stop leaves: exit status 0, the log's last words, no trip
    /// open in a sound file whose chain verifies. Returns the last trip in the log, if there is one.
    private func expectCleanStop(_ daemon: Trackd, _ signal: Int32?,
                                 sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any]? {
        if let signal { daemon.send(signal) }
        let status = await daemon.exitStatus()
        #expect(status == 0, "exit status \(status.map { "\($0)" } ?? "none (still running)"): \(daemon.process.output)",
                sourceLocation: sourceLocation)
        #expect(daemon.process.output.contains("trackd stopped"), sourceLocation: sourceLocation)
        #expect(!daemon.process.output.contains("ServiceGroupError"), sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: daemon.socket), "the socket is removed", sourceLocation: sourceLocation)
        #expect(try await query(daemon.database, "PRAGMA integrity_check").trimmingCharacters(in: .whitespacesAndNewlines) == "ok",
                sourceLocation: sourceLocation)
        let listed = try await trackctl(["--db", daemon.database, "--json", "trips", "--all"])
        #expect(listed.status == 0, "\(listed.error)", sourceLocation: sourceLocation)
        let trips = try json(listed.output) as? [[String: Any]] ?? []
        #expect(trips.allSatisfy { $0["state"] as? String == "closed" }, "no trip left open: \(trips)",
                sourceLocation: sourceLocation)
        let verify = try await trackctl(["--db", daemon.database, "verify"])
        #expect(verify.status == 0, "\(verify.output)\(verify.error)", sourceLocation: sourceLocation)
        return trips.last
    }
}

extension ISO8601DateFormatter {
    /// `2026-11-22T08:00:44.000Z`, as the log writes times.
    static var withFraction: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
