import ArgumentParser
import ControlSocket
import Foundation
import TestSupport
import TrackCore

/// `trackbench load`: the load harness (issue 7, item 7): many clients and watchers while trackd records a drive
/// played very fast, under a watchdog, with a PASS/FAIL summary.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Clients and watchers against trackd recording a fast drive, under systemd's watchdog protocol.",
        discussion: """
            trackd runs with NOTIFY_SOCKET and WATCHDOG_USEC set, as systemd starts it, on a drive played at \
            SPEED× with a trip running; CLIENTS clients on trackctl's own connection code ask status, trips, \
            profile, odometer and regular.list in turn, as fast as answered, while WATCHERS follow every fix. \
            Checks: every WATCHDOG=1 within the watchdog time and no complaint of a stuck engine, every request \
            answered, every watcher given every fix (no lagged, no gap), trackd stopping cleanly at SIGTERM. Exits 1 \
            when one fails.
            """)

    @Option(help: "The drive (NMEA with dated RMC sentences), long enough to play for the whole run.")
    var drive: String

    @Option(help: "Clients asking at once, each on its own connection.")
    var clients = 50

    @Option(help: "Watchers following every fix.")
    var watchers = 10

    @Option(help: "How long the clients ask, seconds.")
    var seconds = 60.0

    @Option(help: "Playback speed (times the recorded pace).")
    var speed = 100.0

    @Option(help: "Each client waits this long between an answer and its next request, milliseconds (0: at once).")
    var interval = 0.0

    @Option(help: "The watchdog time given to trackd (WATCHDOG_USEC), seconds; systemd/trackd.service has 10.")
    var watchdog = 10.0

    @Flag(help: "Clients on plain blocking sockets, a thread each, instead of trackctl's client.")
    var blocking = false

    @Option(help: "trackd to run. Default: beside trackbench, else the root package's build (.build/release for a release trackbench).")
    var trackd: String?

    @Option(help: "Folder for trackd's state, the notify socket and the log (kept). Default: a new temporary folder.")
    var work: String?

    func run() async throws {
        let work = work ?? "\(NSTemporaryDirectory())/trackbench-load-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: "\(work)/state", withIntermediateDirectories: true)
        let recording = try RecordedDrive(path: URL(fileURLWithPath: drive).standardizedFileURL.path)
        let listener = try NotifyListener(path: "\(work)/notify.sock")
        defer { listener.stop() }
        let socket = "\(work)/state/control.sock"
        let daemon = try DaemonLauncher.start(
            trackd ?? ProductPaths.program("trackd"),
            arguments: ["--source", "file://\(recording.path)?speed=\(speed)", "--state-dir", "\(work)/state",
                        "--auto-start", "business", "--log-level", "notice"],
            environment: ["NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": String(Int(watchdog * 1_000_000))],
            outputPath: "\(work)/trackd.log") { listener.count(of: "READY=1") > 0 }
        defer { daemon.stop() }

        let followers = (0..<watchers).map { FixWatcher(socket: socket, name: "trackbench watcher \($0)") }
        let started = ContinuousClock.now
        let deadline = started + .milliseconds(Int64(seconds * 1000))
        let pause = Duration.microseconds(Int64(interval * 1000))
        let methods: [ControlMethod] = [.status, .trips, .status, .profile, .status, .odometer, .status, .regularList]
        let tally = blocking
            ? try await offload { [clients] in
                BlockingLoad.run(socket: socket, clients: clients, until: deadline, pause: pause, methods: methods.map(\.rawValue))
            }
            : await ClientLoad.run(socket: socket, clients: clients, until: deadline, pause: pause, methods: methods)
        let elapsed = ContinuousClock.now - started
        let status = try? await ControlClient.withConnection(socketPath: socket, client: "trackbench load") { connection in
            try await connection.call(.status, params: NoParams(), result: DaemonStatus.self)
        }
        let running = daemon.isRunning
        let stopped = try await offload { daemon.stop(grace: 30); return daemon.exitStatus }
        for follower in followers { _ = await follower.waitForEnd(upTo: 10) }

        let summary = LoadSummary(
            clients: clients, watchers: watchers, speed: speed, blocking: blocking, interval: interval, watchdog: watchdog,
            elapsed: elapsed, tally: tally, pings: listener.arrivals(of: "WATCHDOG=1").filter { $0 >= started },
            started: started, followers: followers.map(\.snapshot), drive: recording, epochs: status?.epochs,
            runningAtEnd: running, exitStatus: stopped,
            stuck: daemon.output.contains("the engine has not handled an input"), work: work)
        print(summary.text)
        if !summary.passed { throw ExitCode(1) }
    }
}
