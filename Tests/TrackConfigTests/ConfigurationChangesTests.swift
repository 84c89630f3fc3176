import Testing
import TrackCore
@testable import TrackConfig

struct ConfigurationChangesTests {
    private func settings(_ text: String, overrides: EffectiveConfiguration.Overrides = .init()) throws -> EffectiveConfiguration {
        EffectiveConfiguration(file: try ConfigurationFile.parse(text, path: "t.conf"), path: "t.conf", overrides: overrides)
    }

    @Test func namesEachChangedKeyAndWhetherItAppliesNowOrAtTheNextStart() throws {
        let old = try settings("daemon:\n  source: gpsd://localhost:2947\n")
        let new = try settings("""
            daemon:
              source: serial:///dev/gps0
              socket: /run/other.sock
              log_level: debug
              alert_command: /usr/local/bin/buzz
            engine:
              idle_alert_after: 600
              max_horizontal_error: 30
              dead_reckoning: accept
            log:
              commit_interval: 10
            profile:
              driver: Anna Tamm
            """)
        let changes = ConfigurationChanges(from: old, to: new)
        #expect(changes.applied == ["daemon.log_level", "daemon.alert_command", "engine.max_horizontal_error",
                                    "engine.dead_reckoning", "engine.idle_alert_after", "profile"])
        #expect(changes.atNextStart == ["daemon.source", "daemon.socket", "log"])
        #expect(!changes.isEmpty)
    }

    @Test func aChangedMailSectionWaitsForTheNextStart() throws {
        let old = try settings("mail:\n  to: driver@example.org\n")
        let new = try settings("mail:\n  to: [driver@example.org, tax@example.com]\n")
        let changes = ConfigurationChanges(from: old, to: new)
        #expect(changes.atNextStart == ["mail"])
        #expect(changes.applied.isEmpty)
        #expect(old.reloading(new).mail == old.mail)
    }

    @Test func aChangedUplinkSectionAppliesAtOnce() throws {
        let old = try settings("uplink:\n  mqtt: mqtt://broker-a.example.org\n")
        let new = try settings("uplink:\n  mqtt: mqtts://broker-b.example.org\n  device: van-1\n")
        let changes = ConfigurationChanges(from: old, to: new)
        #expect(changes.applied == ["uplink"])
        #expect(changes.atNextStart.isEmpty)
        #expect(old.reloading(new).uplink == new.uplink)
    }

    @Test func findsNothingInTheSameSettingsWrittenDifferently() throws {
        let old = try settings("engine:\n  idle_alert_after: 7200\n")
        let new = try settings("# the defaults, spelled out\nengine:\n  idle_alert_after: 7200.0\ndaemon:\n  auto_start: none\n")
        #expect(ConfigurationChanges(from: old, to: new).isEmpty)
    }

    @Test func aFlagKeepsItsValueWhateverTheReloadedFileSays() throws {
        let flags = EffectiveConfiguration.Overrides(logLevel: .warning)
        let old = try settings("", overrides: flags)
        let new = try settings("daemon:\n  log_level: trace\n", overrides: flags)
        #expect(ConfigurationChanges(from: old, to: new).isEmpty)
    }

    @Test func runsWithTheLiveSettingsAndKeepsWarningAboutTheRestUntilARestart() throws {
        let old = try settings("")
        let new = try settings("daemon:\n  state_dir: /data/trackd\nengine:\n  idle_alert_after: 600\n")
        let running = old.reloading(new)
        #expect(running.engine.idleAlertAfter == 600)
        #expect(running.stateDirectory == old.stateDirectory, "the log stays where it was opened")
        // A second reload of the same file still says the state folder (and the socket in it) waits for a restart,
        // and nothing else.
        let again = ConfigurationChanges(from: running, to: new)
        #expect(again.applied.isEmpty)
        #expect(again.atNextStart == ["daemon.state_dir", "daemon.socket"])
    }
}
