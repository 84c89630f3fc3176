#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// trackd as systemd runs it (`Type=notify`, `WatchdogSec=`): what it tells systemd, when, and what a SIGTERM
/// leaves behind; the configuration it refuses.
@Suite(.serialized)
struct SystemdServiceTests {
    @Test func tellsSystemdItIsReadyHowItIsAndThatItLivesAndClosesTheTripOnSIGTERM() async throws {
        let folder = try TemporaryFolder()
        let listener = try NotifyListener(path: folder.file("notify.sock"))
        let daemon = try await Trackd.start(
            state: folder.path, source: "file://\(DriveLog.demo)?speed=10", autoStart: "business",
            environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "2000000"])
        let told = await poll(upTo: 60) {
            listener.count(of: "READY=1") == 1 && listener.count(of: "WATCHDOG=1") >= 2
                && listener.assignments.contains { $0.hasPrefix("STATUS=business trip") && $0.contains("3D fix") }
        }
        #expect(told, "\(listener.assignments)")
        // READY=1 comes once the socket answers.
        #expect(try await trackctl(["--socket", daemon.socket, "status"]).status == 0)
        #expect(listener.count(of: "STOPPING=1") == 0)

        await daemon.stop()
        #expect(!daemon.process.isRunning)
        #expect(daemon.process.exitStatus == 0, "systemd would record a failure: \(daemon.process.output)")
        #expect(await poll(upTo: 5) { listener.count(of: "STOPPING=1") == 1 }, "\(listener.assignments)")
        #expect(try await query(daemon.database, "SELECT state || ' ' || end_reason FROM trip") == "closed shutdown")
        #expect(!FileManager.default.fileExists(atPath: daemon.socket), "the socket is removed")
        listener.stop()
    }

    @Test func aWedgedEngineStopsTheWatchdogPingsUntilItMovesAgain() async throws {
        let folder = try TemporaryFolder()
        let listener = try NotifyListener(path: folder.file("notify.sock"))
        let daemon = try await Trackd.start(
            state: folder.path, source: "file://\(DriveLog.demo)?speed=10", autoStart: "business",
            configuration: "log:\n  commit_interval: 1\n  busy_timeout: 30\n",
            environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "2000000"])
        #expect(await poll(upTo: 60) { listener.count(of: "WATCHDOG=1") >= 2 }, "\(listener.assignments)")
        // Another program takes the database's write lock (as sqlite3 on the board could) and keeps it until the
        // test lets go; a change asked over the socket then waits for it inside the tracker (up to the log's busy
        // timeout, 30 s here), and the engine stands still meanwhile, whether the car drives or not.
        let lock = try DatabaseLock(daemon.database, in: folder, exclusive: true)
        #expect(await lock.waitUntilHeld(), "\(lock.output)")
        let change = try TestSubprocess(
            executable: Products.trackctl,
            arguments: ["--socket", daemon.socket, "odometer", "set", "1000", "--reason", "the engine waits for the log"],
            outputPath: folder.file("change.log"))
        defer { change.stop() }
        // The pings stop for longer than the engine may stand (2 s at WATCHDOG_USEC=2000000) plus a ping's interval.
        let silent = await poll(upTo: 60) {
            guard let last = listener.lastArrival(of: "WATCHDOG=1") else { return false }
            return ContinuousClock.now - last > .seconds(3)
        }
        #expect(silent, "WATCHDOG=1 kept coming while the engine was stuck: \(listener.assignments.suffix(8))")
        #expect(daemon.process.isRunning)
        await lock.release()
        let pingsAgain = listener.count(of: "WATCHDOG=1")
        #expect(await poll(upTo: 60) { listener.count(of: "WATCHDOG=1") > pingsAgain }, "pings resume once the engine runs")
        #expect(daemon.process.output.contains("the engine has not handled an input for a while"))
        await daemon.stop()
        listener.stop()
    }

    @Test func refusesABadConfigurationNamingTheKeyAndItsLine() async throws {
        let folder = try TemporaryFolder()
        let bad = folder.file("trackd.conf")
        try Data("daemon:\n  source: gpsd://localhost:2947\n  auto_start: sometimes\n".utf8)
            .write(to: URL(fileURLWithPath: bad))
        let state = folder.file("state")
        for arguments in [["--config", bad, "--state-dir", state], ["--check-config", "--config", bad]] {
            let result = try await run(Products.trackd, arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.error.contains("\(bad):3: 'auto_start' cannot be 'sometimes': expected one of business, private, unclassified, none"),
                    "\(result.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: state), "nothing was started")

        try Data("daemon:\n  source: serial:///dev/gps0\n  baud: 4800\n  auto_start: business\n".utf8)
            .write(to: URL(fileURLWithPath: bad))
        let good = try await run(Products.trackd, ["--check-config", "--config", bad])
        #expect(good.status == 0)
        #expect(good.output.contains("\(bad): usable"))
        #expect(good.output.contains("source         serial:///dev/gps0?baud=4800"))
        #expect(good.output.contains("auto_start     business"))
        let overridden = try await run(Products.trackd, ["--check-config", "--config", bad, "--source", "gpsd://10.0.0.2:2947",
                                                         "--auto-start", "none"])
        #expect(overridden.output.contains("source         gpsd://10.0.0.2:2947"), "a flag wins over the file")
        #expect(overridden.output.contains("auto_start     none"))
    }

    /// trackd reads time zones from the folder its environment's TZDIR names (tzdata's own variable): a zone only
    /// that folder has is known with it and unknown without it.
    @Test func checksTheProfilesTimeZoneInTheFolderTZDIRNames() async throws {
        let folder = try TemporaryFolder()
        let zones = folder.file("zoneinfo")
        try FileManager.default.createDirectory(atPath: "\(zones)/Test", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Asia/Kolkata", toPath: "\(zones)/Test/Zone")
        let configuration = folder.file("trackd.conf")
        try Data("profile:\n  time_zone: Test/Zone\n".utf8).write(to: URL(fileURLWithPath: configuration))
        let arguments = ["--check-config", "--config", configuration]
        let with = try await run(Products.trackd, arguments, adding: ["TZDIR": zones])
        #expect(with.status == 0, "\(with.output)\(with.error)")
        let without = try await run(Products.trackd, arguments, removing: ["TZDIR"])
        #expect(without.status == 1, "\(without.output)")
        #expect(without.error.contains("Test/Zone"), "\(without.error)")
    }
}

extension SystemdServiceTests {
    @Test func runsTheAlertCommandOnAnIdleAlertWithTheAlertInItsEnvironment() async throws {
        let folder = try TemporaryFolder()
        let script = folder.file("buzz")
        let record = folder.file("buzzed")
        // A program, run directly: its arguments arrive as given (a shell would split "two words").
        try ExecutableScript.write("#!/bin/sh\nprintf '%s|' \"$@\" > '\(record).tmp'\nenv | grep '^TRACKD_' | sort >> '\(record).tmp'\nmv '\(record).tmp' '\(record)'\n",
                                   to: script)
        // The demo drive stands for over a minute before it moves off: an idle alert after 60 s of standing.
        let daemon = try await Trackd.start(
            state: folder.path, source: "file://\(DriveLog.demo)?speed=20", autoStart: "business",
            configuration: "daemon:\n  alert_command: [\"\(script)\", \"two words\", \"--times=3\"]\nengine:\n  idle_alert_after: 60\n")
        let ran = await poll(upTo: 60) { FileManager.default.fileExists(atPath: record) }
        #expect(ran, "\(daemon.process.output)")
        let text = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        #expect(text.hasPrefix("two words|--times=3|"))
        #expect(text.contains("TRACKD_EVENT=idle-alert"))
        #expect(text.contains("TRACKD_TRIP_ID=1"))
        #expect(text.contains("TRACKD_STATIONARY_SINCE=2026-11-22T08:00:"))
        #expect(text.contains("TRACKD_LATITUDE=59.4"))
        await daemon.stop()
    }
}

extension SystemdServiceTests {
    @Test func stopsAnAlertCommandThatOutlivesItsTimeout() async throws {
        let folder = try TemporaryFolder()
        let script = folder.file("stuck-buzzer")
        // It starts a child of its own, then hangs: at the timeout both go (its whole process group).
        try ExecutableScript.write("#!/bin/sh\nsleep 300.5 &\nexec sleep 300.25\n", to: script)
        let daemon = try await Trackd.start(
            state: folder.path, source: "file://\(DriveLog.demo)?speed=20", autoStart: "business",
            configuration: "daemon:\n  alert_command: \(script)\n  alert_timeout: 1\nengine:\n  idle_alert_after: 60\n")
        let stopped = await poll(upTo: 60) { daemon.process.output.contains("alert command stopped after its timeout") }
        #expect(stopped, "\(daemon.process.output)")
        let gone = await poll(upTo: 10) {
            let lines = (try? await offload { try TrackdProcesses.commandLines() }) ?? ["unknown 300.25"]
            return !lines.contains { $0.contains("300.25") || $0.contains("300.5") }
        }
        #expect(gone, "the stuck program and its child are gone")
        await daemon.stop()
    }
}

/// The command lines of the processes on this machine.
enum TrackdProcesses {
    static func commandLines() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { Int($0) != nil }.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            return String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
        }
    }
}
