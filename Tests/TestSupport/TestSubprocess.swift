#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A child process for tests (a daemon such as gpsfake), started so that it can be stopped cleanly.
///
/// Foundation's `Process` passes the test runner's blocked signal mask on to the child, and SIGTERM is among the
/// blocked signals: a daemon started that way ignores `terminate()`, and so does everything it starts. This
/// starts the child with `posix_spawn`, an empty signal mask and default signal handlers, in a process group of
/// its own (so that a signal reaches it and its children together), with standard input from /dev/null (or a given
/// path), standard output and error to `outputPath`, and no other inherited descriptors.
public final class TestSubprocess: @unchecked Sendable {
    /// The child's process id, which is also its process group id.
    public let pid: pid_t
    /// Where the child's standard output and error go.
    public let outputPath: String
    private var exited = false
    /// Whether the exited child has been reaped: only `stop()` does, as the last thing it does with the process id.
    private var reaped = false
    /// How the child ended, once it has exited: its exit status, or 128 + the signal that killed it (as a shell says).
    public private(set) var exitStatus: Int32?

    /// Starts `executable` with `arguments`; the environment is this process's, with `environment` laid over it.
    /// Standard input is `inputPath` (a FIFO the test writes commands to, say), /dev/null unless given.
    public init(
        executable: String, arguments: [String], environment: [String: String] = [:], inputPath: String = "/dev/null",
        outputPath: String
    ) throws {
        PoolWatch.start()
        self.outputPath = outputPath
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Close what the test runner has open (other tests' pipes among it), so that the daemon cannot hold it.
        // glibc ignores a close action for a descriptor closed meanwhile.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }

        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { _, new in new }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw SubprocessError("cannot start \(executable): \(String(cString: strerror(status)))")
        }
        self.pid = pid
    }

    deinit {
        stop()
    }

    /// Whether the child is still running. A child that has exited is left unreaped (a zombie) until `stop()`: its
    /// process id, which is also its group's, cannot be given to another process meanwhile, so a signal this sends to
    /// the child or its group never reaches another test's process (the suite starts tens of thousands of processes,
    /// and Linux gives ids out again past /proc/sys/kernel/pid_max, 32768 by default).
    public var isRunning: Bool {
        guard !exited else { return false }
        var info = siginfo_t()
        if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 {
            guard info._sifields._sigchld.si_pid == pid else { return true }
            exited = true
            let status = info._sifields._sigchld.si_status
            exitStatus = info.si_code == CLD_EXITED ? status : 128 + status
        } else if errno == ECHILD {
            exited = true
        }
        return !exited
    }

    /// What the child wrote so far.
    public var output: String {
        (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "(no output at \(outputPath))"
    }

    /// Sends `signal` to the child (or, with `group`, to its process group) unless it has been reaped: once reaped,
    /// its id may be another process's, another test's trackd say, which must not get it.
    public func send(_ signal: Int32, group: Bool = false) {
        guard !reaped else { return }
        kill(group ? -pid : pid, signal)
    }

    /// Sends SIGTERM to the child's process group, waits up to `grace` seconds for all of it to exit, then sends
    /// SIGKILL to whatever is left. Safe to call more than once.
    public func stop(grace: Double = 10) {
        // Once reaped, the id may be another process's: nothing more is sent.
        guard !reaped else { return }
        // The child is reaped only at the end, and a group id stays taken while the group has members, so these
        // signals reach the child and its children only.
        if !liveGroupMembers().isEmpty {
            kill(-pid, SIGTERM)
            if !waitUntil(upTo: grace, { liveGroupMembers().isEmpty }) {
                kill(-pid, SIGKILL)
                _ = waitUntil(upTo: grace, { liveGroupMembers().isEmpty })
            }
        }
        // The leader of an exiting process shows as a zombie while its other threads still die: reap it, once.
        _ = waitUntil(upTo: grace) { !isRunning }
        if exited && !reaped {
            var status: Int32 = 0
            if waitpid(pid, &status, 0) == pid || errno == ECHILD { reaped = true }
        }
    }

    /// The processes of the child's group that have not exited (zombies do not count), from /proc.
    private func liveGroupMembers() -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let member = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { return nil }
            // After the command name: state, parent, process group, ...
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count > 2, pid_t(fields[2]) == pid, fields[0] != "Z", fields[0] != "X" else { return nil }
            return member
        }
    }
}

/// Polls `condition` every 20 ms for up to `seconds` (stretched by `TestPatience`); whether it became true. Blocks
/// the calling thread, for clean-up in `defer`, which cannot await.
public func waitUntil(upTo seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(TestPatience.seconds(seconds)))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

/// A child process that could not be started.
public struct SubprocessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Runs blocking work (waiting for a child process, polling it) on a thread of its own, so that it never holds
/// one of the few threads the tests' concurrency pool has (two on a two-core board).
public func offload<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// Checks `condition` every 20 ms for up to `seconds` (stretched by `TestPatience`), sleeping (not blocking) in
/// between; whether it became true. The bound stops a stuck test; the wait ends at the event.
public func poll(upTo seconds: Double, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(TestPatience.seconds(seconds)))
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return await condition()
}
