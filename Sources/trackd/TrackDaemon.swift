import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import TrackConfig
import TrackCore
import TrackInput
import TrackJournal
import TrackService
import TrackStore

/// `trackd`: the mileage-logger daemon. Reads fixes, keeps the live state, serves the control socket.
@main
struct TrackDaemon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trackd",
        abstract: "Vehicle mileage logger: reads a GPS receiver and keeps a tax-proof mileage log.",
        discussion: """
            Sources: gpsd://HOST:PORT (gpsd through libgps), serial:///dev/ttyACM0?baud=9600 (a receiver on a \
            serial port), file:///path/log.nmea?speed=N (a recorded log played at N times its pace, 0 = at once).
            """,
        version: TrackVersion.string
    )

    @Option(help: "Where fixes come from (gpsd://HOST:PORT, serial:///DEVICE?baud=N, file:///PATH?speed=N).")
    var source: String = SourceAddress.default.description

    @Option(help: "Folder for trackd's state. Default: $STATE_DIRECTORY under systemd, else /var/lib/trackd.")
    var stateDir: String?

    @Option(help: "Control socket. Default: $RUNTIME_DIRECTORY/control.sock under systemd, else STATE_DIR/control.sock.")
    var socket: String?

    @Option(help: "Least important messages logged: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    @Option(help: ArgumentHelp("Start a trip of this kind when trackd starts (ignition on = boot): business, private or unclassified.", valueName: "kind"))
    var autoStart: TripKind?

    @Option(help: ArgumentHelp(
        "Members of this group (besides root and trackd's own user) may change the log over the socket.",
        valueName: "group"))
    var controlGroup: String = "trackd"

    @Option(help: ArgumentHelp("Configuration file (YAML) with engine: and log: sections.", valueName: "file"))
    var config: String?

    func validate() throws {
        do {
            _ = try SourceAddress(parsing: source)
        } catch {
            throw ValidationError("\(error)")
        }
        if let config {
            do {
                _ = try ConfigurationFile.load(path: config)
            } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    func run() async throws {
        let address = try SourceAddress(parsing: source)
        let environment = ProcessInfo.processInfo.environment
        let stateDirectory = stateDir ?? environment["STATE_DIRECTORY"] ?? "/var/lib/trackd"
        let socketPath = socket ?? environment["RUNTIME_DIRECTORY"].map { "\($0)/control.sock" }
            ?? "\(stateDirectory)/control.sock"
        let level = logLevel
        LogDestination.bootstrap(level: level)
        let logger = Logger(label: "trackd")
        do {
            try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        } catch {
            throw ValidationError("cannot create the state directory \(stateDirectory): \(error.localizedDescription)")
        }

        let file = try config.map { try ConfigurationFile.load(path: $0) } ?? ConfigurationFile()
        let engine = file.engine
        let databasePath = "\(stateDirectory)/trackd.sqlite"
        let log: MileageLog
        do {
            log = try MileageLog.open(path: databasePath)
        } catch {
            logger.critical("cannot open the mileage log", metadata: ["path": "\(databasePath)", "error": "\(error)"])
            throw ValidationError("\(error)")
        }
        let access = ControlAccess(group: controlGroup)
        if !access.groupExists {
            logger.warning("the control group does not exist: only root and trackd's own user may change the log",
                           metadata: ["group": "\(controlGroup)"])
        }
        let status = LiveStatus(address: address.description, now: MonotonicClock.now())
        let hub = WatchHub()
        let (events, continuation) = AsyncStream.makeStream(of: SourceEvent.self, bufferingPolicy: .unbounded)
        let (commands, commandContinuation) = AsyncStream.makeStream(of: EngineCommand.self, bufferingPolicy: .bufferingOldest(64))
        let sourceService = SourceService(source: address.makeSource(), continuation: continuation, logger: logger)
        let recording = TrackerService.Recording(
            log: log, commitInterval: file.log.commitInterval,
            recovery: PowerCutRecovery(resumeWithin: file.log.resumeWithin, maxSpeed: engine.maxSpeed),
            exports: file.log.exports ? MonthlyExports(directory: "\(stateDirectory)/exports") : nil)
        let tracker = TrackerService(events: events, commands: commands, configuration: engine, autoStart: autoStart,
                                     status: status, hub: hub, address: address.description, logger: logger,
                                     recording: recording)
        let control = ControlServer(
            socketPath: socketPath,
            handler: ControlRequestHandler(status: status, clock: MonotonicClock.now, log: log,
                                           commands: commandContinuation, access: access),
            hub: hub, logger: logger,
            onListening: { SystemdNotifier.notify("READY=1\nSTATUS=waiting for GPS") })

        logger.notice("trackd starting", metadata: [
            "version": "\(TrackVersion.string)", "source": "\(address)", "state": "\(stateDirectory)",
            "socket": "\(socketPath)", "log": "\(databasePath)",
        ])
        // Shutdown runs in reverse: the source stops first, the tracker drains what it delivered, the socket goes last.
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [
                .init(service: control),
                .init(service: tracker, successTerminationBehavior: .gracefullyShutdownGroup),
                .init(service: sourceService, successTerminationBehavior: .ignore),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        ))
        try await group.run()
        commandContinuation.finish()
        SystemdNotifier.notify("STOPPING=1")
        logger.notice("trackd stopped")
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
extension TripKind: ExpressibleByArgument {}
