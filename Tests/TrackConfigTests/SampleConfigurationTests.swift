import Foundation
import Testing
import TrackCore
@testable import TrackConfig

/// `etc/trackd.conf`, installed as /etc/trackd/trackd.conf: every key, each with its true default.
struct SampleConfigurationTests {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func namesEveryKeyAndDocsExplainEachDaemonAndProfileKey() throws {
        let sample = try read("etc/trackd.conf")
        let guide = try read("docs/configuration.md")
        let sections: [(String, [String])] = [("daemon", DaemonSettings.keys), ("engine", EngineSettings.keys),
                                              ("log", LogSettings.keys), ("privacy", PrivacySettings.keys),
                                              ("profile", ProfileSettings.keys), ("uplink", UplinkSettings.keys),
                                              ("mail", MailSettings.keys), ("web", WebSettings.keys),
                                              ("obd", OBDSettings.keys), ("stick", StickSettings.keys)]
        for (section, keys) in sections {
            #expect(sample.contains("\n\(section):"), "section \(section)")
            for key in keys {
                #expect(sample.contains("# \(key): "), "etc/trackd.conf shows \(section).\(key)")
                if section == "daemon" || section == "profile" {
                    #expect(guide.contains("`\(key)`"), "docs/configuration.md explains \(section).\(key)")
                }
            }
        }
    }

    @Test func itsCommentedValuesAreTheDefaults() throws {
        // Uncomment every key; the examples (alert command, profile) are not defaults and stay out.
        let examples: Set<String> = ["alert_command", "driver", "plate", "company", "time_zone", "country", "mqtt", "osmand", "device",
                                     "topic", "ca_file", "cert_file", "key_file", "username", "password_file",
                                     "to", "from", "msmtp_config", "monthly", "certificate", "key", "names", "adapter",
                                     "ignition_off_after"]
        let lines = try read("etc/trackd.conf").components(separatedBy: "\n").map { line -> String in
            guard let range = line.range(of: "# "), line[..<range.lowerBound].allSatisfy({ $0 == " " }) else { return line }
            let rest = line[range.upperBound...]
            guard let colon = rest.firstIndex(of: ":"), !examples.contains(String(rest[..<colon])),
                  rest[..<colon].allSatisfy({ $0.isLetter || $0 == "_" }) else { return line }
            return String(line[..<range.lowerBound]) + rest
        }
        let file = try ConfigurationFile.parse(lines.joined(separator: "\n"), path: "etc/trackd.conf")
        #expect(file.engine == EngineConfiguration())
        #expect(file.log == LogConfiguration())
        #expect(file.stick == StickConfiguration())
        let uncommented = EffectiveConfiguration(file: file, path: nil)
        var defaults = EffectiveConfiguration(file: ConfigurationFile(), path: nil)
        defaults.socket = "/run/trackd/control.sock"  // the sample shows systemd's, the service's own
        #expect(uncommented == defaults)
        #expect(file.daemon.stateDirectory != nil && file.daemon.autoStart != nil, "the keys were read")
    }
}
