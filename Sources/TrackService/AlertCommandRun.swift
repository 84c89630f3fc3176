#if canImport(Glibc)
import Glibc
#endif
import CSpawn
import FoundationEssentials
import Synchronization
import SystemPackage
import TrackThreads

/// One run of the alert command, of msmtp for a mail (`MailTransport`), or of mount(8) for trackd-stick: the program itself (never a shell), in a
/// process group of its own, with an empty signal mask and default signal handlers (trackd traps SIGTERM, SIGINT and
/// SIGHUP), standard input from /dev/null (or from `input`, a file in memory), standard output and error into one
/// pipe of trackd's, and no other descriptor of trackd's.
///
/// A thread of its own waits for it directly (`waitpid` on its pid) and reads its output, keeping the first
/// `outputLimit` bytes. The run is over when the program has exited and nothing it started is left in its group;
/// what it started in the background may run on until the timeout. At the timeout (or when trackd stops) the whole
/// group gets SIGTERM, and SIGKILL `grace` seconds later if any of it is left.
///
/// Not Foundation's `Process`, which handed the program an inherited descriptor (a script that backgrounded a child
/// and exited was seen as running until the child ended) and signalled only the program itself at the timeout (its
/// children outlived it). Nor swift-subprocess: the run must end when the program and its group are gone, even while
/// a process that left the group still holds the output pipe, and its output API reads to the end of the pipe.
public struct AlertCommandRun: Sendable {
    /// How the program ended.
    public enum Ending: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal that was not trackd's ended it.
        case killed(signal: Int32)
        /// It was still running at the timeout; its whole group was stopped.
        case timedOut
        /// trackd stopped while it ran; its whole group was stopped.
        case stopped
        /// It could not be started: the system's reason.
        case cannotStart(String)
    }

    /// What a run came to.
    public struct Outcome: Sendable, Equatable {
        public var ending: Ending
        /// What the program and its group wrote to standard output and error, up to `outputLimit` bytes.
        public var output: String
        /// Bytes written beyond `outputLimit`, not kept.
        var outputCut: Int
        /// Processes it started in the background were still in its group at the timeout, and were stopped.
        var stoppedLeftovers: Bool
    }

    let command: [String]
    let environment: [String: String]
    /// Seconds from the start after which the program, and whatever it started, is stopped.
    let timeout: Double
    var outputLimit = 4096
    /// Seconds between SIGTERM and SIGKILL.
    var grace = 1.0
    /// What the program reads on standard input (a mail for msmtp); `nil` for /dev/null.
    var input: [UInt8]?
    /// The name of the thread that waits for it.
    var threadName = "trackd-alert"

    /// A run of `command` (the program's path first), with `environment` over this process's, stopped after
    /// `timeout` seconds, keeping the first `outputLimit` bytes of its output.
    public init(command: [String], environment: [String: String], timeout: Double, outputLimit: Int = 4096) {
        self.command = command
        self.environment = environment
        self.timeout = timeout
        self.outputLimit = outputLimit
    }

    /// Runs the command to its end on a thread of its own; cancelling the calling task stops it.
    public func run() async -> Outcome {
        let stop = StopRequest()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                do throws(ThreadStartError) {
                    try DetachedThread.start(name: threadName) { continuation.resume(returning: self.runBlocking(stop: stop)) }
                } catch {
                    switch error {
                    case .cannotStart(_, let code): continuation.resume(returning: Outcome(failure: code))
                    }
                }
            }
        } onCancel: {
            stop.requested.store(true, ordering: .releasing)
        }
    }

    /// Starts, watches and ends the run; blocks the calling thread.
    private func runBlocking(stop: StopRequest) -> Outcome {
        var standardInput: Int32 = -1
        if let input {
            switch Self.memoryFile(holding: input) {
            case .success(let file): standardInput = file
            case .failure(let error): return Outcome(failure: error.rawValue)
            }
        }
        defer { if standardInput >= 0 { close(standardInput) } }
        var pipeEnds: [Int32] = [-1, -1]
        guard trackd_pipe_cloexec(&pipeEnds) == 0 else { return Outcome(failure: errno) }
        let (reader, writer) = (pipeEnds[0], pipeEnds[1])
        let spawned = spawn(readingFrom: standardInput, writingTo: writer)
        close(writer)
        guard case .success(let pid) = spawned else {
            close(reader)
            if case .failure(let error) = spawned { return Outcome(failure: error.rawValue) }
            return Outcome(failure: EINVAL)
        }
        _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK)
        defer { close(reader) }

        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64(timeout * 1000)))
        var capture = Capture(limit: outputLimit)
        var ending: Ending?
        var stoppedLeftovers = false
        while true {
            capture.wait(on: reader, upTo: 0.05)
            if ending == nil { ending = Self.reap(pid, blocking: false) }
            // Over once the program is reaped and its group is empty.
            if ending != nil, !Self.groupIsAlive(pid) { break }
            let stopping = stop.requested.load(ordering: .acquiring)
            if stopping || ContinuousClock.now >= deadline {
                if ending == nil { ending = stopping ? .stopped : .timedOut } else { stoppedLeftovers = true }
                terminateGroup(pid)
                break
            }
        }
        capture.wait(on: reader, upTo: 0)
        return Outcome(ending: ending ?? .timedOut, output: capture.text, outputCut: capture.cut,
                       stoppedLeftovers: stoppedLeftovers)
    }

    /// A file in memory (`memfd_create`) holding `bytes`, read from its start: its descriptor, or the errno.
    private static func memoryFile(holding bytes: [UInt8]) -> Result<Int32, Errno> {
        let file = trackd_memfd("trackd-input")
        guard file >= 0 else { return .failure(Errno(rawValue: errno)) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(file, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let error = Errno(rawValue: errno)
                close(file)
                return .failure(error)
            }
            written += count
        }
        guard lseek(file, 0, SEEK_SET) == 0 else {
            let error = Errno(rawValue: errno)
            close(file)
            return .failure(error)
        }
        return .success(file)
    }

    /// Starts the program in a group of its own, reading `reader` (or /dev/null when it is -1), its output and
    /// errors into `writer`: its pid, or the errno.
    private func spawn(readingFrom reader: Int32, writingTo writer: Int32) -> Result<pid_t, Errno> {
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
        if reader >= 0 {
            posix_spawn_file_actions_adddup2(&actions, reader, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, writer, 1)
        posix_spawn_file_actions_adddup2(&actions, writer, 2)
        // Nothing of trackd's beyond these three: not the log, the lock, the socket, the serial port.
        trackd_spawn_addclosefrom(&actions, 3)

        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { _, new in new }
        let argv = command.map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid = pid_t()
        var status = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
        // "Text file busy": the program file is open for writing somewhere, often for an instant only (a process
        // forked elsewhere holds a copy of a writer's descriptor until it execs). Tried again a few times.
        for _ in 0..<5 where status == ETXTBSY {
            usleep(50_000)
            status = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
        }
        return status == 0 ? .success(pid) : .failure(Errno(rawValue: status))
    }

    /// SIGTERM to the whole group; SIGKILL to what is left after `grace`; the program reaped.
    private func terminateGroup(_ pid: pid_t) {
        kill(-pid, SIGTERM)
        let end = ContinuousClock.now.advanced(by: .milliseconds(Int64(grace * 1000)))
        while ContinuousClock.now < end {
            _ = Self.reap(pid, blocking: false)
            if !Self.groupIsAlive(pid) { return }
            usleep(20_000)
        }
        kill(-pid, SIGKILL)
        _ = Self.reap(pid, blocking: true)
    }

    /// How the program ended, once it has: `nil` while it runs (or once it was reaped already).
    private static func reap(_ pid: pid_t, blocking: Bool) -> Ending? {
        var status: Int32 = 0
        guard waitpid(pid, &status, blocking ? 0 : WNOHANG) == pid else { return nil }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .killed(signal: status & 0x7f)
    }

    /// Whether any process of the group the program led (its pid is the group's id) is left and not a zombie: an
    /// orphan's zombie waits for whoever reaps orphans, which in a container may be slow to, or never do it.
    private static func groupIsAlive(_ pid: pid_t) -> Bool {
        guard kill(-pid, 0) == 0 || errno == EPERM else { return false }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.contains { entry in
            guard Int32(entry) != nil, let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { return false }
            // After the command name: state, parent, process group, …
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            return fields.count > 2 && pid_t(fields[2]) == pid && fields[0] != "Z" && fields[0] != "X"
        }
    }
}

extension AlertCommandRun.Outcome {
    /// A run that could not start.
    init(failure error: Int32) {
        self.init(ending: .cannotStart(String(cString: strerror(error))), output: "", outputCut: 0, stoppedLeftovers: false)
    }
}

/// Whether the task that waits for a run was cancelled (trackd stops).
private final class StopRequest: Sendable {
    let requested = Atomic<Bool>(false)
}

/// The first bytes of a run's output, and how many more there were.
private struct Capture {
    let limit: Int
    private(set) var bytes: [UInt8] = []
    private(set) var cut = 0
    /// Every writer has closed the pipe.
    private var ended = false

    init(limit: Int) {
        self.limit = limit
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Waits up to `seconds` for output on `descriptor` and takes what is there.
    mutating func wait(on descriptor: Int32, upTo seconds: Double) {
        guard !ended else {
            if seconds > 0 { usleep(UInt32(seconds * 1_000_000)) }
            return
        }
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&request, 1, Int32(seconds * 1000)) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count == 0 { ended = true }
            guard count > 0 else { return }
            let keep = min(count, limit - bytes.count)
            if keep > 0 { bytes += buffer.prefix(keep) }
            cut += count - max(keep, 0)
        }
    }
}
