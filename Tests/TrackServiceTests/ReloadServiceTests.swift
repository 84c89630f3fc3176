import Foundation
import Logging
import Synchronization
import TestSupport
import Testing
import TrackConfig
import TrackCore
import UnixSignals
@testable import TrackService

/// The reload itself (what SIGHUP starts); the signal on a real trackd is in SystemTests.
struct ReloadServiceTests {
    /// A reload service on a configuration file, with what it changed collected.
    private final class Harness {
        let folder: TemporaryFolder
        let running: EffectiveConfiguration
        let service: ReloadService
        let alerts: AlertSettings
        let told = Told()
        let records: RecordingLogHandler.Records
        private let inbox = TrackerInbox()

        var path: String { folder.file("trackd.conf") }

        init(_ text: String) async throws {
            folder = try TemporaryFolder()
            let path = folder.file("trackd.conf")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            running = try EffectiveConfiguration.load(explicitPath: path, environment: [:])
            alerts = AlertSettings(.init(command: running.alertCommand, timeout: running.alertTimeout))
            let (logger, records) = RecordingLogHandler.logger()
            self.records = records
            let told = told
            service = ReloadService(
                hangups: await UnixSignalsSequence(trapping: .sigusr2), running: running,
                load: { () throws(ConfigurationError) in try EffectiveConfiguration.load(explicitPath: path, environment: [:]) },
                targets: .init(tracker: inbox, alerts: alerts, setLogLevel: { name in told.level.withLock { $0 = name } },
                               log: nil),
                notify: { message in told.notes.withLock { $0.append(message) } }, logger: logger)
        }

        func write(_ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }

        /// The engine settings sent to the tracker.
        func engineSettings() async -> [EngineConfiguration] {
            inbox.finish()
            var sent: [EngineConfiguration] = []
            for await item in inbox.items {
                if case .command(.reconfigure(let configuration)) = item { sent.append(configuration) }
            }
            return sent
        }
    }

    /// What the service told the log switch and systemd.
    private final class Told: Sendable {
        let level = Mutex<LogLevelName?>(nil)
        let notes = Mutex<[String]>([])
    }

    @Test func appliesTheLiveSettingsAndLeavesTheRestForTheNextStart() async throws {
        let harness = try await Harness("daemon:\n  source: gpsd://localhost:2947\n")
        // A program that exists (the file's command is checked when it is read): /bin/echo stands for a buzzer.
        try harness.write("""
            daemon:
              source: serial:///dev/gps0
              log_level: debug
              alert_command: ["/bin/echo", "--times", "3"]
              alert_timeout: 4
            engine:
              idle_alert_after: 600
            """)
        let after = await harness.service.reload(harness.running)
        #expect(after.engine.idleAlertAfter == 600)
        #expect(after.source == .gpsd(host: "localhost", port: 2947), "the source trackd reads stays until a restart")
        #expect(await harness.engineSettings().map(\.idleAlertAfter) == [600])
        #expect(harness.alerts.values == .init(command: ["/bin/echo", "--times", "3"], timeout: 4))
        #expect(harness.told.level.withLock { $0 } == .debug)
        #expect(harness.told.notes.withLock { $0 } == ["RELOADING=1\nSTATUS=reloading the configuration", "READY=1"])
        let reloaded = try #require(harness.records.records("configuration reloaded").first)
        #expect(reloaded["applied"] == "daemon.log_level, daemon.alert_command, daemon.alert_timeout, engine.idle_alert_after")
        let waiting = try #require(harness.records.records("changed settings wait for trackd's next start (systemctl restart trackd)").first)
        #expect(waiting.level == .warning)
        #expect(waiting["keys"] == "daemon.source")
    }

    @Test func changesNothingWhenTheFileNoLongerReadsAndSaysWhere() async throws {
        let harness = try await Harness("engine:\n  idle_alert_after: 900\n")
        try harness.write("daemon:\n  log_level: debug\nengine:\n  idle_alert_after: soon\n")
        let after = await harness.service.reload(harness.running)
        #expect(after == harness.running)
        #expect(await harness.engineSettings().isEmpty)
        #expect(harness.told.level.withLock { $0 } == nil, "not even the keys before the bad one apply")
        let refused = try #require(harness.records.records("configuration not reloaded: trackd carries on with the settings it has").first)
        #expect(refused.level == .error)
        #expect(refused["error"]?.contains("\(harness.path):4: 'idle_alert_after' cannot be 'soon'") == true, "\(refused["error"] ?? "")")
        #expect(harness.told.notes.withLock { $0 }.last == "READY=1", "systemd hears the reload is over either way")
    }

    @Test func keepsTheRunningSettingsWhenTheNewOnesContradictEachOther() async throws {
        let harness = try await Harness("engine:\n  idle_alert_after: 900\n")
        try harness.write("daemon:\n  log_level: debug\nengine:\n  idle_alert_after: 600\n  stopped_speed: 0.8\n")
        let after = await harness.service.reload(harness.running)
        #expect(after == harness.running)
        #expect(await harness.engineSettings().isEmpty)
        #expect(harness.told.level.withLock { $0 } == nil)
        let refused = try #require(harness.records.records("configuration not reloaded: trackd carries on with the settings it has").first)
        #expect(refused["error"]?.hasPrefix("\(harness.path):5: 'engine.stopped_speed' (0.8 m/s) must be below "
                                            + "'engine.moving_speed' (0.5 m/s, the default)") == true, "\(refused["error"] ?? "")")
    }

    @Test func keepsTheRunningAlertCommandWhenTheNewOneCannotBeRun() async throws {
        let harness = try await Harness("daemon:\n  alert_command: /bin/true\n")
        try harness.write("daemon:\n  alert_command: /usr/bin/beep -f 440\n")
        let after = await harness.service.reload(harness.running)
        #expect(after.alertCommand == ["/bin/true"])
        #expect(harness.alerts.values.command == ["/bin/true"])
        let refused = try #require(harness.records.records("configuration not reloaded: trackd carries on with the settings it has").first)
        #expect(refused["error"]?.contains("write a list: alert_command: [/usr/bin/beep, -f, \"440\"]") == true,
                "\(refused["error"] ?? "")")
    }

    @Test func aFileWithNothingNewChangesNothing() async throws {
        let harness = try await Harness("engine:\n  idle_alert_after: 900\n")
        let after = await harness.service.reload(harness.running)
        #expect(after == harness.running)
        #expect(await harness.engineSettings().isEmpty)
        #expect(harness.records.records("configuration reloaded").first?["applied"] == "nothing changed")
    }
}
