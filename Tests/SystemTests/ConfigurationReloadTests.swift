#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// `systemctl reload trackd`: SIGHUP to the running daemon, which reads its configuration again.
@Suite(.serialized)
struct ConfigurationReloadTests {
    @Test func takesNewEngineAndAlertSettingsOnSIGHUPWhileTheTripRunsAndKeepsThemThroughABadFile() async throws {
        let folder = try TemporaryFolder()
        // The last 150 s of the demo drive (into town, then parked), and an hour more parked.
        let drive = folder.file("arrive-and-park.nmea")
        try DriveLog.cut(DriveLog.demo, after: 8 * 3600 + 15 * 60 + 57 - 150, to: drive)
        try DriveLog.appendParking(to: drive, seconds: 3600)
        let script = folder.file("buzz")
        let record = folder.file("buzzed")
        try ExecutableScript.write("#!/bin/sh\nenv | grep '^TRACKD_' | sort > '\(record).tmp'\nmv '\(record).tmp' '\(record)'\n",
                                   to: script)
        let listener = try NotifyListener(path: folder.file("notify.sock"))
        // At first no alert can come: a week's standing.
        let daemon = try await Trackd.start(
            state: folder.path, source: "file://\(drive)?speed=10", autoStart: "business",
            configuration: "engine:\n  idle_alert_after: 604800\n", environment: ["NOTIFY_SOCKET": listener.path])
        let config = "\(daemon.state)/trackd.yaml"
        #expect(await poll(upTo: 30) { listener.count(of: "READY=1") == 1 }, "\(listener.assignments)")

        // A file that no longer reads: trackd says why and carries on as it was.
        try Data("engine:\n  idle_alert_after: soon\n".utf8).write(to: URL(fileURLWithPath: config))
        daemon.send(SIGHUP)
        #expect(await poll(upTo: 30) { daemon.process.output.contains("configuration not reloaded") }, "\(daemon.process.output)")
        #expect(daemon.process.output.contains("\(config):2: 'idle_alert_after' cannot be 'soon'"))
        #expect(await poll(upTo: 10) { listener.count(of: "READY=1") == 2 }, "\(listener.assignments)")
        #expect(listener.count(of: "RELOADING=1") == 1)
        #expect(daemon.process.isRunning)

        // A good one: a short idle alert and a buzzer now; a socket elsewhere must wait for a restart.
        try Data("""
            daemon:
              alert_command: \(script)
              socket: \(folder.file("elsewhere.sock"))
            engine:
              idle_alert_after: 60
            """.utf8).write(to: URL(fileURLWithPath: config))
        daemon.send(SIGHUP)
        #expect(await poll(upTo: 30) { daemon.process.output.contains("configuration reloaded") }, "\(daemon.process.output)")
        #expect(daemon.process.output.contains("applied=daemon.alert_command, engine.idle_alert_after"), "\(daemon.process.output)")
        #expect(daemon.process.output.contains("changed settings wait for trackd's next start"))
        #expect(daemon.process.output.contains("keys=daemon.socket"))
        #expect(await poll(upTo: 10) { listener.count(of: "READY=1") == 3 })

        // The trip that ran before the reload raises the alert under the new settings.
        #expect(await poll(upTo: 120) { FileManager.default.fileExists(atPath: record) }, "\(daemon.process.output)")
        let alert = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        #expect(alert.contains("TRACKD_EVENT=idle-alert"))
        #expect(alert.contains("TRACKD_TRIP_ID=1"))
        let status = try await trackctl(["--socket", daemon.socket, "status"])
        #expect(status.status == 0, "the socket is where it was: \(status.error)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("elsewhere.sock")))

        await daemon.stop()
        #expect(daemon.process.exitStatus == 0, "\(daemon.process.output)")
        #expect(try await query(daemon.database, "SELECT count(*) || ' ' || group_concat(state) FROM trip") == "1 closed")
        listener.stop()
    }
}
