import Testing
import TrackCore
@testable import TrackConfig

struct ConfigurationFileTests {
    @Test func keepsEveryDefaultForAnEmptyFile() throws {
        let file = try ConfigurationFile.parse("", path: "trackd.conf")
        #expect(file.engine == EngineConfiguration())
        let comments = try ConfigurationFile.parse("# nothing set\nengine:\n", path: "trackd.conf")
        #expect(comments.engine == EngineConfiguration())
    }

    @Test func setsTheEngineKeysItIsGiven() throws {
        let file = try ConfigurationFile.parse("""
            engine:
              idle_alert_after: 3600      # an hour
              max_horizontal_error: 35.5
              convergence_fixes: 4
              dead_reckoning: accept
            """, path: "trackd.conf")
        var expected = EngineConfiguration()
        expected.idleAlertAfter = 3600
        expected.maxHorizontalError = 35.5
        expected.convergenceFixes = 4
        expected.deadReckoning = .accept
        #expect(file.engine == expected)
    }

    @Test func setsTheLogKeysItIsGivenAndKeepsTheOthers() throws {
        let file = try ConfigurationFile.parse("""
            log:
              commit_interval: 5
              exports: false
            """, path: "trackd.conf")
        #expect(file.log == LogConfiguration(commitInterval: 5, resumeWithin: 300, exports: false))
        #expect(file.engine == EngineConfiguration())
        #expect(try ConfigurationFile.parse("log:\n", path: "t.conf").log == LogConfiguration())
    }

    @Test func refusesABadLogValueOrAnUnknownLogKey() {
        #expect(throws: ConfigurationError.badValue(path: "t.conf", line: 2, key: "commit_interval", value: "0.1",
                                                    expected: "a number from 1 to 600 (s)")) {
            try ConfigurationFile.parse("log:\n  commit_interval: 0.1\n", path: "t.conf")
        }
        #expect(throws: ConfigurationError.badValue(path: "t.conf", line: 2, key: "exports", value: "sometimes",
                                                    expected: "true or false")) {
            try ConfigurationFile.parse("log:\n  exports: sometimes\n", path: "t.conf")
        }
        #expect(throws: ConfigurationError.unknownKey(path: "t.conf", line: 2, key: "resume_after", known: LogSettings.keys)) {
            try ConfigurationFile.parse("log:\n  resume_after: 60\n", path: "t.conf")
        }
    }

    @Test func refusesAnUnknownKeyNamingItsLineAndTheNearestKnownOne() {
        do {
            _ = try ConfigurationFile.parse("engine:\n  idle_alert_after: 60\n  idle_alert_afer: 7200\n", path: "t.conf")
            Issue.record("an unknown key was accepted")
        } catch {
            #expect(error == .unknownKey(path: "t.conf", line: 3, key: "idle_alert_afer", known: EngineSettings.keys))
            #expect(error.description.contains("t.conf:3"))
            #expect(error.description.contains("did you mean idle_alert_after?"))
        }
    }

    @Test func refusesABadValueSayingWhatWouldBeRight() {
        let cases: [(String, String)] = [
            ("engine:\n  max_speed: fast\n", "max_speed"),
            ("engine:\n  max_speed: -3\n", "max_speed"),
            ("engine:\n  convergence_fixes: 2.5\n", "convergence_fixes"),
            ("engine:\n  dead_reckoning: maybe\n", "dead_reckoning"),
        ]
        for (text, key) in cases {
            do {
                _ = try ConfigurationFile.parse(text, path: "t.conf")
                Issue.record("\(text) was accepted")
            } catch {
                guard case .badValue(_, let line, let named, _, let expected) = error else {
                    Issue.record("\(text): \(error)")
                    continue
                }
                #expect(line == 2)
                #expect(named == key)
                #expect(!expected.isEmpty)
            }
        }
    }

    @Test func reportsBrokenYAMLWithItsLine() {
        do {
            _ = try ConfigurationFile.parse("engine:\n  max_speed: [1, 2\n", path: "t.conf")
            Issue.record("broken YAML was accepted")
        } catch {
            guard case .syntax(let path, let line, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == "t.conf")
            #expect(line != nil)
        }
    }

    @Test func refusesAnUnknownSection() {
        #expect(throws: ConfigurationError.self) { try ConfigurationFile.parse("engines:\n  max_speed: 50\n", path: "t") }
        #expect(throws: ConfigurationError.self) { try ConfigurationFile.parse("engine: 5\n", path: "t") }
    }

    @Test func saysWhenTheFileCannotBeRead() {
        #expect(throws: ConfigurationError.cannotRead(path: "/nonexistent/trackd.conf", reason: "no such file")) {
            try ConfigurationFile.load(path: "/nonexistent/trackd.conf")
        }
        #expect(throws: ConfigurationError.cannotRead(path: "/tmp", reason: "Is a directory")) {
            try ConfigurationFile.load(path: "/tmp")
        }
    }

    @Test func theMailSectionTakesOneAddressOrAListAndSendsMonthlyByDefault() throws {
        let one = try ConfigurationFile.parse("mail:\n  to: driver@example.org\n", path: "t.conf").mail
        #expect(one.to == [try MailAddress("driver@example.org")])
        #expect(one.sendsMonthly)
        #expect(one.retryInterval == 900 && one.checkInterval == 60 && one.from == nil && one.msmtpConfig == nil)
        let file = try ConfigurationFile.parse("""
            mail:
              to: [driver@example.org, tax@example.com]
              from: car-1@example.org
              msmtp_config: /etc/trackd/msmtprc
              monthly: false
              retry_interval: 120
              check_interval: 5
            """, path: "t.conf")
        #expect(file.mail.to.map(\.text) == ["driver@example.org", "tax@example.com"])
        #expect(file.mail.from?.text == "car-1@example.org")
        #expect(file.mail.msmtpConfig == "/etc/trackd/msmtprc")
        #expect(file.mail.monthly == false && !file.mail.sendsMonthly)
        #expect(file.mail.retryInterval == 120 && file.mail.checkInterval == 5)
        #expect(!(try ConfigurationFile.parse("", path: "t.conf")).mail.sendsMonthly, "no address, no mail")
    }

    @Test func theMailSectionRefusesAnAddressWithANameAMonthlyMailToNobodyAndARelativeMsmtpConfig() {
        let named = refusal("mail:\n  to:\n    - driver@example.org\n    - Tax Office <tax@example.com>\n")
        #expect(named.contains("t.conf:4") && named.contains("'to'") && named.contains("Tax Office <tax@example.com>")
                && named.contains("without a name or angle brackets"), "\(named)")
        #expect(refusal("mail:\n  to: []\n").contains("at least one e-mail address"))
        let nobody = refusal("mail:\n  monthly: true\n")
        #expect(nobody.contains("t.conf:2") && nobody.contains("'mail.to' names nobody"), "\(nobody)")
        #expect(refusal("mail:\n  to: a@example.org\n  msmtp_config: msmtprc\n").contains("an absolute path"))
        #expect(refusal("mail:\n  to: a@example.org\n  monthly: sometimes\n").contains("true or false"))
        #expect(refusal("mail:\n  to: a@example.org\n  retry_interval: 0\n").contains("'retry_interval'"))
        #expect(refusal("mail:\n  cc: a@example.org\n").contains("'cc'"))
    }

    @Test func theWebSectionTakesTheCertificateAndKeyTogetherAsAbsolutePaths() throws {
        let file = try ConfigurationFile.parse("web:\n  certificate: /etc/trackd/web.crt\n  key: /etc/trackd/web.key\n",
                                               path: "t.conf")
        #expect(file.web.certificate == "/etc/trackd/web.crt" && file.web.key == "/etc/trackd/web.key")
        #expect(file.web.tlsFiles != nil)
        #expect((try ConfigurationFile.parse("", path: "t.conf")).web.tlsFiles == nil, "no certificate, no HTTPS")
        let alone = refusal("web:\n  certificate: /etc/trackd/web.crt\n")
        #expect(alone.contains("t.conf:2") && alone.contains("'web.key' is not"), "\(alone)")
        #expect(refusal("web:\n  key: /etc/trackd/web.key\n").contains("'web.certificate' is not"))
        #expect(refusal("web:\n  certificate: web.crt\n  key: /etc/trackd/web.key\n").contains("an absolute path"))
        #expect(refusal("web:\n  port: 443\n").contains("'port'"))
    }

    @Test func theWebSectionNamesTheHostNamesThePageAnswersTo() throws {
        #expect(try ConfigurationFile.parse("web:\n  names: trackd.lan\n", path: "t.conf").web.names == ["trackd.lan"])
        #expect(try ConfigurationFile.parse("web:\n  names: [trackd.lan, logger.fleet.example.]\n", path: "t.conf").web.names
                == ["trackd.lan", "logger.fleet.example."])
        #expect(try ConfigurationFile.parse("", path: "t.conf").web.names.isEmpty)
        let url = refusal("web:\n  names:\n    - trackd.lan\n    - http://trackd.lan:8080\n")
        #expect(url.contains("t.conf:4") && url.contains("a host name of letters"), "\(url)")
        #expect(refusal("web:\n  names: {a: b}\n").contains("'names'"))
    }

    @Test func theOBDSectionNamesASerialOrWiFiAdapterAndRefusesAnythingElseWithTheLine() throws {
        #expect(try ConfigurationFile.parse("obd:\n  adapter: serial:///dev/obd0\n", path: "t.conf").obd.adapter
                == .serial(path: "/dev/obd0", baud: 38400))
        #expect(try ConfigurationFile.parse("obd:\n  adapter: tcp://192.168.0.10:35000\n", path: "t.conf").obd.adapter
                == .tcp(host: "192.168.0.10", port: 35000))
        #expect(try ConfigurationFile.parse("", path: "t.conf").obd.adapter == nil, "no adapter: GPS only")
        let gpsd = refusal("obd:\n  adapter: gpsd://localhost:2947\n")
        #expect(gpsd.contains("t.conf:2") && gpsd.contains("tcp://HOST:PORT (Wi-Fi)"), "\(gpsd)")
        #expect(refusal("obd:\n  adapter: tcp://192.168.0.10\n").contains("needs a host and port"))
        #expect(refusal("obd:\n  adapter: serial:///dev/obd0?baud=1\n").contains("baud must be one of"))
        #expect(refusal("obd:\n  poll: 1\n").contains("'poll'"))
    }

    @Test func tripsStartedByTheIgnitionNeedAnAdapterAndTakeTheirOffTime() throws {
        let file = try ConfigurationFile.parse("""
            daemon:
              auto_start: business
              auto_start_on: ignition
              ignition_off_after: 120
            obd:
              adapter: tcp://192.168.0.10:35000
            """, path: "t.conf")
        let effective = EffectiveConfiguration(file: file, path: "t.conf")
        #expect(effective.autoStartOn == .ignition && effective.ignitionOffAfter == 120 && effective.autoStart == .business)
        #expect(EffectiveConfiguration(file: try ConfigurationFile.parse("", path: "t.conf"), path: nil).autoStartOn == .boot)
        let noAdapter = refusal("daemon:\n  auto_start_on: ignition\n")
        #expect(noAdapter.contains("t.conf:2") && noAdapter.contains("'obd.adapter' names no adapter"), "\(noAdapter)")
        let alone = refusal("daemon:\n  ignition_off_after: 60\n")
        #expect(alone.contains("t.conf:2") && alone.contains("is not 'ignition'"), "\(alone)")
        #expect(refusal("daemon:\n  auto_start_on: key\n").contains("boot, ignition"))
        #expect(refusal("daemon:\n  auto_start_on: ignition\n  ignition_off_after: 2\nobd:\n  adapter: tcp://h:1\n")
            .contains("5 to 3600"))
    }

    /// The refusal's sentence for `text` as `t.conf`, or "accepted".
    private func refusal(_ text: String) -> String {
        do {
            _ = try ConfigurationFile.parse(text, path: "t.conf")
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test func readsDevNullAsAFileWithNoSettings() throws {
        // `trackd --config /dev/null`: every default (it said "permission" before).
        let file = try ConfigurationFile.load(path: "/dev/null")
        #expect(file.engine == EngineConfiguration())
        #expect(file.log == LogConfiguration())
    }
}
