#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing
@testable import TrackService

/// The alert command as trackd runs it: real programs (shell scripts in a temporary folder), their own process
/// group, a direct wait, the whole group stopped at the timeout, no descriptor of trackd's, output kept up to a limit.
/// No assertion on how long anything took: each waits for the event (a pid file written, the run's end).
struct AlertCommandRunTests {
    @Test func reportsTheProgramsExitStatusAndItsOutput() async throws {
        let folder = try TemporaryFolder()
        let script = try folder.script("buzz", "echo \"buzz $TRACKD_EVENT\"\necho 'to stderr' >&2\nexit 3")
        let outcome = await AlertCommandRun(command: [script], environment: ["TRACKD_EVENT": "idle-alert"], timeout: 60).run()
        #expect(outcome.ending == .exited(3))
        #expect(outcome.output == "buzz idle-alert\nto stderr\n")
        #expect(outcome.outputCut == 0)
        #expect(!outcome.stoppedLeftovers)
    }

    @Test func theWholeGroupIsStoppedAtTheTimeout() async throws {
        let folder = try TemporaryFolder()
        // The program starts a child and then hangs itself: both must go at the timeout.
        let script = try folder.script("stuck", "sleep 300 &\necho $! > '\(folder.file("child"))'\nexec sleep 301")
        let outcome = await AlertCommandRun(command: [script], environment: [:], timeout: 1).run()
        #expect(outcome.ending == .timedOut)
        let child = try #require(pid_t(try String(contentsOfFile: folder.file("child"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(!isRunning(child), "the program's child outlived the timeout")
    }

    @Test func aProgramThatBackgroundsAChildAndExitsIsOverWhenTheChildIsOrAtTheTimeout() async throws {
        let folder = try TemporaryFolder()
        // Exits at once, leaving a child in its group: the run (and the one-at-a-time rule) lasts until the
        // timeout stops the child, not for as long as the child would run.
        let script = try folder.script("fork", "sleep 300 &\necho $! > '\(folder.file("child"))'\nexit 0")
        let outcome = await AlertCommandRun(command: [script], environment: [:], timeout: 1).run()
        #expect(outcome.ending == .exited(0))
        #expect(outcome.stoppedLeftovers)
        let child = try #require(pid_t(try String(contentsOfFile: folder.file("child"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(!isRunning(child))

        // A child that ends by itself ends the run with it, with nothing to stop.
        let short = try folder.script("short", "sleep 0.2 &\nexit 0")
        let quick = await AlertCommandRun(command: [short], environment: [:], timeout: 300).run()
        #expect(quick.ending == .exited(0))
        #expect(!quick.stoppedLeftovers)
    }

    @Test func readsTheGivenInputOnStandardInputEvenBeyondAPipesSize() async throws {
        let folder = try TemporaryFolder()
        // msmtp reads the message this way: 300 KiB, more than a pipe holds, and the program's count of it back.
        let input = (0..<300 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let script = try folder.script("count", "wc -c")
        var run = AlertCommandRun(command: [script], environment: [:], timeout: 60)
        run.input = input
        let outcome = await run.run()
        #expect(outcome.ending == .exited(0))
        #expect(outcome.output.trimmingCharacters(in: .whitespacesAndNewlines) == "\(input.count)")

        let quiet = await AlertCommandRun(command: [script], environment: [:], timeout: 60).run()
        #expect(quiet.output.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "without input: /dev/null")
    }

    @Test func inheritsNoDescriptorOfTrackds() async throws {
        let folder = try TemporaryFolder()
        // A file trackd has open without close-on-exec (as a library might leave one): the program must not get it.
        let marker = folder.file("marker")
        #expect(FileManager.default.createFile(atPath: marker, contents: Data("x".utf8)))
        // Moved to 64 or above: the shell keeps its own descriptors from 10 up (dash reads the script on 10), and a
        // number the test process happened to get could be one of those (seen once: 10, the script itself).
        let opened = open(marker, O_RDONLY)
        #expect(opened > 2)
        let descriptor = fcntl(opened, F_DUPFD, 64)
        close(opened)
        #expect(descriptor >= 64)
        defer { close(descriptor) }
        let script = try folder.script("fds", "for f in /proc/$$/fd/*; do echo \"${f##*/} $(readlink $f)\"; done")
        let outcome = await AlertCommandRun(command: [script], environment: [:], timeout: 60).run()
        #expect(outcome.ending == .exited(0))
        #expect(!outcome.output.contains(marker), "\(outcome.output)")
        #expect(!outcome.output.split(separator: "\n").contains { $0.hasPrefix("\(descriptor) ") }, "\(outcome.output)")
        #expect(outcome.output.contains("0 /dev/null"), "standard input is /dev/null: \(outcome.output)")
    }

    @Test func keepsTheOutputUpToTheLimitAndCountsTheRest() async throws {
        let folder = try TemporaryFolder()
        let script = try folder.script("chatty", "head -c 10000 /dev/zero | tr '\\\\0' 'a'")
        let outcome = await AlertCommandRun(command: [script], environment: [:], timeout: 60, outputLimit: 4096).run()
        #expect(outcome.ending == .exited(0))
        #expect(outcome.output.utf8.count == 4096)
        #expect(outcome.outputCut == 10000 - 4096)
    }

    @Test func aProgramThatCannotStartSaysWhy() async throws {
        let outcome = await AlertCommandRun(command: ["/nonexistent/buzzer"], environment: [:], timeout: 60).run()
        #expect(outcome.ending == .cannotStart("No such file or directory"))
    }

    @Test func aStopOfTrackdStopsTheWholeGroup() async throws {
        let folder = try TemporaryFolder()
        let script = try folder.script("long", "sleep 300 &\necho $! > '\(folder.file("child"))'\nexec sleep 302")
        let outcome = await withTaskGroup(of: AlertCommandRun.Outcome.self) { group in
            group.addTask { await AlertCommandRun(command: [script], environment: [:], timeout: 600).run() }
            // A generous bound: under qemu-aarch64, beside 950 other tests, the shell once needed more than 120 s.
            #expect(await poll(upTo: 300) { FileManager.default.fileExists(atPath: folder.file("child")) })
            group.cancelAll()
            return await group.next()!
        }
        #expect(outcome.ending == .stopped)
        let child = try #require(pid_t(try String(contentsOfFile: folder.file("child"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(!isRunning(child))
    }

    /// Whether a process with that id is alive (a zombie is not).
    private func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: end)...].split(separator: " ").first
        return state != "Z" && state != "X"
    }
}

extension TemporaryFolder {
    /// A shell script in the folder, executable: its path.
    func script(_ name: String, _ body: String) throws -> String {
        let path = file(name)
        try ExecutableScript.write("#!/bin/sh\n\(body)\n", to: path)
        return path
    }
}
