import Testing
import TrackCore
@testable import TrackConfig

struct EffectiveConfigurationTests {
    private let file = """
        daemon:
          source: serial:///dev/gps0
          baud: 4800
          state_dir: /data/trackd
          auto_start: private
          log_level: debug
          alert_command: ["/usr/local/bin/buzz", "--times", "3"]
          alert_timeout: 5
        profile:
          driver: Anna Tamm
          time_zone: Europe/Tallinn
          country: gb
        """

    @Test func takesTheDaemonSectionAndAppliesTheBaudToASerialSourceNamingNone() throws {
        let settings = EffectiveConfiguration(file: try ConfigurationFile.parse(file, path: "t.conf"), path: "t.conf")
        #expect(settings.source == .serial(path: "/dev/gps0", baud: 4800))
        #expect(settings.stateDirectory == "/data/trackd")
        #expect(settings.socket == "/data/trackd/control.sock")
        #expect(settings.autoStart == .private)
        #expect(settings.logLevel == .debug)
        #expect(settings.alertCommand == ["/usr/local/bin/buzz", "--times", "3"])
        #expect(settings.alertTimeout == 5)
        #expect(settings.profile == ProfileChanges(driver: "Anna Tamm", timeZone: "Europe/Tallinn", country: "UK"))
        let own = try ConfigurationFile.parse("daemon:\n  source: serial:///dev/gps0?baud=115200\n  baud: 4800\n", path: "t.conf")
        #expect(EffectiveConfiguration(file: own, path: nil).source == .serial(path: "/dev/gps0", baud: 115_200),
                "the address's own baud rate wins")
    }

    @Test func flagsWinOverTheFileWhichWinsOverSystemdsEnvironment() throws {
        let parsed = try ConfigurationFile.parse(file, path: "t.conf")
        let environment = ["STATE_DIRECTORY": "/var/lib/trackd", "RUNTIME_DIRECTORY": "/run/trackd"]
        let flags = EffectiveConfiguration.Overrides(source: .gpsd(host: "localhost", port: 2947), autoStart: AutoStart.none)
        let settings = EffectiveConfiguration(file: parsed, path: "t.conf", overrides: flags, environment: environment)
        #expect(settings.source == .gpsd(host: "localhost", port: 2947))
        #expect(settings.autoStart == nil)
        #expect(settings.stateDirectory == "/data/trackd", "the file's state_dir")
        #expect(settings.socket == "/run/trackd/control.sock", "systemd's runtime directory when the file names no socket")

        let empty = EffectiveConfiguration(file: ConfigurationFile(), path: nil, environment: environment)
        #expect(empty.stateDirectory == "/var/lib/trackd")
        #expect(empty.source == .default)
        #expect(empty.controlGroup == "trackd")
        #expect(empty.autoStart == nil)
        #expect(empty.alertCommand.isEmpty)
        let bare = EffectiveConfiguration(file: ConfigurationFile(), path: nil)
        #expect(bare.socket == "/var/lib/trackd/control.sock")
    }

    @Test func refusesWhatCannotWorkNamingTheKeyAndLine() {
        let cases: [(String, ConfigurationError)] = [
            ("daemon:\n  source: gpsd://host:99999\n",
             .badValue(path: "t.conf", line: 2, key: "source", value: "gpsd://host:99999",
                       expected: "the port must be a number from 1 to 65535")),
            ("daemon:\n  baud: 9601\n",
             .badValue(path: "t.conf", line: 2, key: "baud", value: "9601",
                       expected: "one of 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600")),
            ("daemon:\n  alert_command: beep -r 3\n",
             .badValue(path: "t.conf", line: 2, key: "alert_command", value: "beep -r 3",
                       expected: "the program's absolute path (it is run directly, not through a shell)")),
            ("daemon:\n  state_dir: data\n",
             .badValue(path: "t.conf", line: 2, key: "state_dir", value: "data", expected: "an absolute path (starting with /)")),
            ("profile:\n  time_zone: Mars/Olympus\n",
             .badValue(path: "t.conf", line: 2, key: "time_zone", value: "Mars/Olympus",
                       expected: "an IANA time-zone id such as Europe/Tallinn")),
            ("profile:\n  country: FR\n",
             .badValue(path: "t.conf", line: 2, key: "country", value: "FR", expected: "EE, DE, UK (or GB) or US")),
            ("daemon:\n  autostart: business\n",
             .unknownKey(path: "t.conf", line: 2, key: "autostart", known: DaemonSettings.keys)),
        ]
        for (text, expected) in cases {
            #expect(throws: expected) { try ConfigurationFile.parse(text, path: "t.conf") }
        }
    }

    @Test func profileDefaultsFillOnlyWhatIsEmpty() {
        let defaults = ProfileChanges(driver: "Anna Tamm", plate: "123 ABC", company: "Tamm OÜ", timeZone: "Europe/Tallinn",
                                      country: "EE")
        let fresh = defaults.filling(LogProfile())
        #expect(fresh == ProfileChanges(driver: "Anna Tamm", plate: "123 ABC", company: "Tamm OÜ", timeZone: "Europe/Tallinn",
                                        country: "EE"))
        var set = LogProfile(driver: "Mart", plate: "", company: "Mart OÜ", timeZone: "Europe/Riga")
        set.country = .germany
        let kept = defaults.filling(set)
        #expect(kept == ProfileChanges(plate: "123 ABC"))
        #expect(ProfileChanges().filling(LogProfile()).isEmpty)
    }
}
