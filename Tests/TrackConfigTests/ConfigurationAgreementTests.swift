#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing
import TrackCore
@testable import TrackConfig

/// Settings that contradict each other, and an alert command that cannot be run, are refused when the file is read
/// (at start, with --check-config and on reload), naming both keys, their values and the way out.
struct ConfigurationAgreementTests {
    @Test func refusesAStoppedSpeedNotBelowTheMovingSpeed() {
        #expect(throws: ConfigurationError.contradiction(
            path: "t.conf", line: 3,
            rule: "'engine.stopped_speed' (0.6 m/s) must be below 'engine.moving_speed' (0.6 m/s): a moving vehicle stops "
                + "below stopped_speed and starts from moving_speed, so with no room between them it would stop as soon "
                + "as it started")) {
            try ConfigurationFile.parse("engine:\n  moving_speed: 0.6\n  stopped_speed: 0.6\n", path: "t.conf")
        }
    }

    @Test func namesTheDefaultWhenOnlyOneOfThePairIsGiven() throws {
        do {
            _ = try ConfigurationFile.parse("engine:\n  moving_speed: 0.1\n", path: "t.conf")
            Issue.record("a moving speed below the default stopped speed passed")
        } catch {
            #expect("\(error)".hasPrefix("t.conf:2: 'engine.stopped_speed' (0.2 m/s, the default) must be below "
                                         + "'engine.moving_speed' (0.1 m/s)"), "\(error)")
        }
    }

    @Test func refusesSpeedsAndErrorsOutOfTheirOrder() {
        for text in [
            "engine:\n  certain_speed: 0.4\n",                         // below the moving speed (0.5)
            "engine:\n  max_speed: 2\n",                               // below the certain speed (2.5)
            "engine:\n  converged_horizontal_error: 60\n",             // above the largest usable error (50)
            "engine:\n  max_horizontal_error: 20\n",
        ] {
            #expect(throws: ConfigurationError.self, "\(text)") { try ConfigurationFile.parse(text, path: "t.conf") }
        }
    }

    @Test func acceptsTheDefaultsAndSettingsThatKeepTheirOrder() throws {
        _ = try ConfigurationFile.parse("", path: "t.conf")
        let file = try ConfigurationFile.parse("""
            engine:
              stopped_speed: 0.3
              moving_speed: 0.4
              certain_speed: 0.4
              max_speed: 60
              converged_horizontal_error: 30
              max_horizontal_error: 30
            """, path: "t.conf")
        #expect(file.engine.stoppedSpeed == 0.3 && file.engine.certainSpeed == 0.4)
    }

    @Test func refusesAnAlertCommandWrittenAsOneStringWithSpaces() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.conf")
        try Data("daemon:\n  alert_command: /usr/bin/beep -f 440\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ConfigurationError.unusableProgram(
            path: path, line: 2, key: "alert_command", program: "/usr/bin/beep -f 440",
            reason: "does not exist: one string is one path, spaces and all; to give the program arguments, write a "
                + "list: alert_command: [/usr/bin/beep, -f, \"440\"]")) {
            try EffectiveConfiguration.load(explicitPath: path, environment: [:])
        }
    }

    @Test func refusesAnAlertProgramThatIsMissingOrMayNotBeRun() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.conf")
        let script = folder.file("buzz")
        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: script))
        chmod(script, 0o644)
        for (command, reason) in [
            ("[\"\(folder.file("missing"))\", \"-r\"]", "does not exist (No such file or directory)"),
            (folder.path, "is not a file"),
            (script, "may not be run (Permission denied): make it executable for trackd's user (chmod 755)"),
        ] {
            try Data("daemon:\n  alert_command: \(command)\n".utf8).write(to: URL(fileURLWithPath: path))
            do {
                _ = try EffectiveConfiguration.load(explicitPath: path, environment: [:])
                Issue.record("\(command) passed")
            } catch {
                #expect("\(error)".hasSuffix(reason), "\(error)")
            }
        }
        chmod(script, 0o755)
        try Data("daemon:\n  alert_command: [\"\(script)\", \"-r\", \"3\"]\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try EffectiveConfiguration.load(explicitPath: path, environment: [:]).alertCommand == [script, "-r", "3"])
    }
}
