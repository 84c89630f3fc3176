#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// The tests' own child processes: stopping one never signals a process that is not its own.
@Suite(.serialized)
struct TestSubprocessTests {
    /// Where the next process id can be chosen (root, Linux): the kernel's last given id, written.
    static let lastPID = "/proc/sys/kernel/ns_last_pid"

    /// A child that exited and was seen exited keeps its id until it is stopped, so that the id, which is also its
    /// group's, cannot be another test's process when `stop()` signals the group. (The suite starts tens of
    /// thousands of processes, more than pid_max: a trackd and a trackd-web of other tests were once stopped so.)
    @Test(.enabled(if: access(lastPID, W_OK) == 0, "\(lastPID) is not writable: not root"))
    func stoppingAChildThatExitedSignalsNoProcessThatCameAfter() throws {
        let folder = try TemporaryFolder()
        let exited = try TestSubprocess(executable: "/bin/true", arguments: [], outputPath: folder.file("true.txt"))
        #expect(waitUntil(upTo: 30) { !exited.isRunning }, "/bin/true ended")
        #expect(exited.exitStatus == 0)
        // The next process started is given the exited child's id if that id is free.
        try Data("\(exited.pid - 1)".utf8).write(to: URL(fileURLWithPath: Self.lastPID))
        let later = try TestSubprocess(executable: "/bin/sleep", arguments: ["600"], outputPath: folder.file("sleep.txt"))
        defer { later.stop() }
        #expect(later.pid != exited.pid, "the exited child's id is still taken")
        exited.stop()
        #expect(later.isRunning, "the process started after the exited child was not signalled")
        exited.stop()
        #expect(later.isRunning, "nor on a second stop()")
    }

    /// How a child ended: its exit status, or 128 and the signal that ended it.
    @Test func tellsHowTheChildEnded() throws {
        let folder = try TemporaryFolder()
        let failed = try TestSubprocess(executable: "/bin/sh", arguments: ["-c", "exit 3"], outputPath: folder.file("a.txt"))
        #expect(waitUntil(upTo: 30) { !failed.isRunning })
        #expect(failed.exitStatus == 3)
        let killed = try TestSubprocess(executable: "/bin/sleep", arguments: ["600"], outputPath: folder.file("b.txt"))
        killed.stop()
        #expect(!killed.isRunning)
        #expect(killed.exitStatus == 128 + SIGTERM)
    }
}
