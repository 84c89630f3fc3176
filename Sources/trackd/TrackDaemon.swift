#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import CMallocTuning
import FoundationEssentials
import Logging
import NIOCore
import ServiceLifecycle
import SystemPackage
import TrackConfig
import TrackCore
import TrackInput
import TrackJournal
import TrackService
import TrackStore
import UnixSignals

/// `trackd`: the mileage-logger daemon. Reads fixes, keeps the live state, serves the control socket.
@main
struct TrackDaemon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trackd",
        abstract: "Vehicle mileage logger: reads a GPS receiver and keeps a tax-proof mileage log.",
        discussion: """
            Sources: gpsd://HOST:PORT (gpsd through libgps), serial:///dev/ttyACM0?baud=9600 (a receiver on a \
            serial port), file:///path/log.nmea?speed=N (a recorded log played at N times its pace, 0 = at once),             auto (the first receiver that talks: a USB receiver at /dev/gps0, a HAT on /dev/serial0 at 9600, 4800,             38400 or 115200 baud, then gpsd at localhost:2947; status says which it took and why).

            Signals: SIGTERM and SIGINT stop trackd, closing the running trip at its last good fix; SIGHUP reads the \
            configuration again (systemctl reload trackd): the engine, alert and log-level settings apply at once, \
            the source, folders and socket at the next start.
            """,
        version: TrackVersion.string
    )

    /// Seconds the trip asked at boot waits, while the car stands, for the OBD-II adapter's first odometer reading
    /// (an ELM327 resets, searches the car's protocol and reads its VIN and odometer in 2–15 s).
    static let carWaitAtBoot = 30.0

    /// trackd started at most this long after the system did counts as started at boot (its unit comes up 10–40 s
    /// into a Pi's boot; a file system check or a slow card may take minutes): the trip asked then may bridge the
    /// drive since power-on.
    static let startedAtBootWithin = 600.0

    @Option(help: "Where fixes come from (gpsd://HOST:PORT, serial:///DEVICE?baud=N, file:///PATH?speed=N, auto). Default: the configuration's daemon.source, else gpsd://localhost:2947.")
    var source: String?

    @Option(help: "Folder for trackd's state. Default: the configuration's daemon.state_dir, else $STATE_DIRECTORY under systemd, else /var/lib/trackd.")
    var stateDir: String?

    @Option(help: "Control socket. Default: the configuration's daemon.socket, else $RUNTIME_DIRECTORY/control.sock under systemd, else STATE_DIR/control.sock.")
    var socket: String?

    @Option(help: "Least important messages logged: trace, debug, info, notice, warning, error, critical. Default: info.")
    var logLevel: Logger.Level?

    @Option(help: ArgumentHelp("Start a trip of this kind when trackd starts (ignition on = boot): business, private, unclassified or none.", valueName: "kind"))
    var autoStart: AutoStart?

    @Option(help: ArgumentHelp(
        "Members of this group (besides root and trackd's own user) may change the log over the socket. Default: trackd.",
        valueName: "group"))
    var controlGroup: String?

    @Option(help: ArgumentHelp("Configuration file (YAML). Default: /etc/trackd/trackd.conf ($CONFIGURATION_DIRECTORY/trackd.conf under systemd) when it exists.", valueName: "file"))
    var config: String?

    @Flag(help: "Check the configuration (the file and these flags), print what trackd would run with, and exit: 0 when it is usable, 1 when not.")
    var checkConfig = false

    func validate() throws {
        if let source {
            do {
                _ = try SourceAddress(parsing: source)
            } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    /// The flags that override the configuration file.
    private var overrides: EffectiveConfiguration.Overrides {
        EffectiveConfiguration.Overrides(
            source: source.flatMap { try? SourceAddress(parsing: $0) }, stateDirectory: stateDir, socket: socket,
            controlGroup: controlGroup, autoStart: autoStart, logLevel: logLevel.flatMap { LogLevelName(rawValue: $0.rawValue) })
    }

    func run() async throws {
        // A file-size limit (LimitFSIZE=, ulimit -f) must not end trackd: a write past it fails with EFBIG, which
        // the mileage log reports as its storage failing and recovers from (docs/reliability.md).
        signal(SIGXFSZ, SIG_IGN)
        // One event-loop thread, not one per core: the control socket's few connections need no more, and each
        // thread costs its stack and its share of the heap (docs/benchmarks.md, "Memory").
        NIOSingletons.groupLoopCountSuggestion = 1
        let environment = ProcessInfo.processInfo.environment
        let settings: EffectiveConfiguration
        do {
            settings = try EffectiveConfiguration.load(explicitPath: config, overrides: overrides, environment: environment)
        } catch {
            _ = try? FileDescriptor.standardError.writeAll("trackd: \(error)\n".utf8)
            throw ExitCode(1)
        }
        if checkConfig {
            print("\(settings.path ?? "no configuration file (\(ConfigurationFile.defaultPath(environment: environment)) does not exist)"): usable")
            for line in settings.summary { print("  " + line) }
            return
        }
        let address = settings.source
        let stateDirectory = settings.stateDirectory
        let socketPath = settings.socket
        let controlGroup = settings.controlGroup
        let autoStart = settings.autoStart
        let levels = LogLevelSwitch(Logger.Level(settings.logLevel))
        LogDestination.bootstrap(levels: levels)
        let logger = Logger(label: "trackd")
        // Trapped before systemd hears READY=1: from then on `systemctl reload` may send SIGHUP.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        // The state folder is trackd's and its group's (FileModes), whatever the umask.
        do {
            try FileModes.prepareFolder(stateDirectory)
        } catch {
            logger.critical("cannot prepare the state folder", metadata: ["state": "\(stateDirectory)", "error": "\(error)"])
            throw ExitCode(1)
        }

        // One trackd per state folder, decided before the log is opened.
        let folderLock: StateFolderLock
        do {
            folderLock = try StateFolderLock(stateDirectory: stateDirectory)
        } catch {
            logger.critical("cannot take the state folder", metadata: ["state": "\(stateDirectory)", "error": "\(error)"])
            throw ExitCode(1)
        }
        defer { withExtendedLifetime(folderLock) {} }

        let engine = settings.engine
        let databasePath = "\(stateDirectory)/trackd.sqlite"
        let log: MileageLog
        // The allowance rates: read again for every report, so that a row added to /etc/trackd/rates.d counts at
        // once; what is wrong with them is said here, at the start (and by trackctl rates at any time).
        let rateFiles = RateFiles.load(environment: environment)
        logger.info("allowance rates read", metadata: ["files": "\(rateFiles.files.joined(separator: ", "))"])
        for warning in rateFiles.warnings {
            logger.error("allowance rates: \(warning)")
        }
        do {
            log = try MileageLog.open(path: databasePath, busyTimeout: settings.log.busyTimeout,
                                      rates: { RateFiles.load(environment: environment).table })
        } catch {
            logger.critical("cannot open the mileage log", metadata: ["path": "\(databasePath)", "error": "\(error)"])
            throw ValidationError("\(error)")
        }
        // The one reader of the wall clock that the daemon's parts share (they take GPS time first where they can).
        let wallClock: @Sendable () -> UTCTime = WallClock.now
        await ProfileDefaults.apply(settings.profile, from: settings.path, to: log, at: wallClock(), logger: logger)
        let access = ControlAccess(group: controlGroup)
        if !access.groupExists {
            logger.warning("the control group does not exist: only root and trackd's own user may change the log",
                           metadata: ["group": "\(controlGroup)"])
        }
        let status = LiveStatus(address: address.description, now: MonotonicClock.now(), wallClock: wallClock)
        status.record(mail: MailStatus(settings.mail))
        do {
            status.record(stick: try await log.lastStickCopy())
        } catch {
            logger.warning("cannot read the last copy to a USB stick", metadata: ["error": "\(error)"])
        }
        let hub = WatchHub()
        let heartbeat = EngineHeartbeat(now: MonotonicClock.now())
        // Fixes wait for the one-second tick unless a watcher shows them live: one wake a second instead of ten.
        let inbox = TrackerInbox(wakeForFixes: { hub.wantsFixes })
        let sourceService = SourceService(source: address.makeSource(), inbox: inbox, logger: logger)
        // The OBD-II adapter's service runs always, so that a reload can name an adapter trackd started without.
        let obdSettings = LiveOBDConfiguration(settings.obd)
        // `obd.adapter: auto` never asks the port trackd reads fixes from; it looks in TRACKD_OBD_DEVICES instead of
        // /dev when that is set (the tests' folder of links to pseudo-terminals).
        var receiverPorts: [String] = []
        if case .serial(let path, _) = address { receiverPorts.append(path) }
        var obdPlaces = OBDAutoSearch.Places()
        if let devices = environment["TRACKD_OBD_DEVICES"], !devices.isEmpty { obdPlaces.devices = devices }
        let obd = OBDService(settings: obdSettings, inbox: inbox,
                             search: OBDAutoSearch(places: obdPlaces, excluding: receiverPorts), logger: logger)
        let uplinkSettings: LiveUplinkConfiguration?
        do {
            uplinkSettings = try Self.uplinkSettings(settings.uplink, environment: environment)
        } catch {
            logger.critical("cannot start the uplink", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
        // An uplink sends from the log, which must then hold every point as it is committed.
        let pointFile = settings.log.pointFile && uplinkSettings == nil
            ? TrackPointFile(path: TrackPointFile.path(forLog: databasePath)) : nil
        let recording = TrackerService.Recording(
            log: log, commitInterval: settings.log.commitInterval,
            recovery: PowerCutRecovery(resumeWithin: settings.log.resumeWithin, maxSpeed: engine.maxSpeed),
            exports: settings.log.exports ? MonthlyExports(directory: "\(stateDirectory)/exports") : nil,
            privacy: settings.privacy, profileDefaults: settings.profile, configurationPath: settings.path,
            pointFile: pointFile)
        let tracker = TrackerService(inbox: inbox, configuration: engine, autoStart: autoStart,
                                     ignitionOffAfter: settings.autoStartOn == .ignition ? settings.ignitionOffAfter : nil,
                                     // A reload that names an adapter later finds the trip at boot long started.
                                     carWaitAtBoot: settings.obd.adapter == nil ? nil : Self.carWaitAtBoot,
                                     poweredAt: MonotonicClock.bootInstant(within: Self.startedAtBootWithin),
                                     status: status, hub: hub, address: address.description, logger: logger,
                                     recording: recording, heartbeat: heartbeat)
        // systemd's notifications (Type=notify), to $NOTIFY_SOCKET; nothing when systemd did not start trackd.
        let notify: @Sendable (String) -> Void = { SystemdNotifySocket.notify($0, environment: environment) }
        let control = ControlServer(
            socketPath: socketPath,
            handler: ControlRequestHandler(
                status: status, clock: MonotonicClock.now, log: log, tracker: inbox, access: access,
                mailer: ReportMailer(configuration: settings.mail, log: log, status: status, domain: Self.hostName())),
            hub: hub, access: access, logger: logger,
            onListening: { notify("READY=1\nSTATUS=\(status.snapshot(now: MonotonicClock.now()).summaryLine)") })
        let alertSettings = AlertSettings(.init(command: settings.alertCommand, timeout: settings.alertTimeout))
        let alerts = AlertService(hub: hub, settings: alertSettings, logger: logger)
        let overrides = overrides
        let configPath = config
        let reload = ReloadService(
            hangups: hangups, running: settings,
            load: { () throws(ConfigurationError) in
                try EffectiveConfiguration.load(explicitPath: configPath, overrides: overrides, environment: environment)
            },
            targets: .init(tracker: inbox, alerts: alertSettings, uplink: uplinkSettings, obd: obdSettings,
                           environment: environment,
                           setLogLevel: { levels.level = Logger.Level($0) }, log: log, wallClock: wallClock),
            notify: notify, logger: logger)
        let systemd = SystemdService(status: status, heartbeat: heartbeat,
                                     watchdog: SystemdNotifySocket.watchdogInterval(environment: environment, pid: getpid()),
                                     clock: MonotonicClock.now, logger: logger, notify: notify)

        logger.notice("trackd starting", metadata: [
            "version": "\(TrackVersion.string)", "source": "\(address)", "state": "\(stateDirectory)",
            "obd": "\(settings.obd.adapter.map { "\($0)" } ?? "none")",
            "socket": "\(socketPath)", "log": "\(databasePath)", "config": "\(settings.path ?? "none")",
            "malloc_arenas": "\(trackd_malloc_single_arena() != 0 ? "1" : "glibc's")",
        ])
        // What the uplinks acknowledged is kept in memory across a restart: systemd's runtime folder, else the
        // control socket's folder (used only when it is tmpfs).
        let markFolder = environment["RUNTIME_DIRECTORY"] ?? FilePath(socketPath).removingLastComponent().string
        // How the services stop: DaemonServices.
        let uplink = uplinkSettings.flatMap {
            UplinkService(log: log, settings: $0, status: status, logger: logger, markFolder: markFolder,
                          clock: MonotonicClock.now)
        }
        let osmand = uplinkSettings.flatMap {
            OsmAndService(log: log, settings: $0, status: status, logger: logger, markFolder: markFolder,
                          clock: MonotonicClock.now)
        }
        let monthlyMail = MonthlyMailService(configuration: settings.mail, log: log, status: status,
                                             domain: Self.hostName(), logger: logger)
        let services = DaemonServices(control: control, alerts: alerts, uplink: uplink, osmand: osmand,
                                      monthlyMail: monthlyMail, reload: reload, tracker: tracker,
                                      source: sourceService, obd: obd, systemd: systemd)
        do {
            try await services.group(logger: logger).run()
        } catch {
            inbox.finish()
            logger.critical("trackd stopped after a failure", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
        inbox.finish()
        logger.notice("trackd stopped")
    }
}

extension TrackDaemon {
    /// The uplinks' settings with the broker's password read, when an uplink is configured (a bad password file
    /// stops trackd at its start, with the reason).
    static func uplinkSettings(_ configuration: UplinkConfiguration,
                               environment: [String: String]) throws(UplinkPasswordFile.Failure) -> LiveUplinkConfiguration? {
        guard configuration.mqtt != nil || configuration.osmand != nil else { return nil }
        var password: String?
        if configuration.mqtt != nil,
           let path = UplinkPasswordFile.path(configured: configuration.passwordFile, environment: environment) {
            password = try UplinkPasswordFile.read(path)
        }
        return LiveUplinkConfiguration(configuration: configuration, password: password, host: hostName())
    }

    /// The machine's host name, for the car's default name on the wire.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "trackd" }
        let name = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return name.isEmpty ? "trackd" : name
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
extension TripKind: ExpressibleByArgument {}
extension AutoStart: ExpressibleByArgument {}

extension Logger.Level {
    /// The swift-log level a configuration's `log_level` names.
    init(_ name: LogLevelName) {
        self = Logger.Level(rawValue: name.rawValue) ?? .info
    }
}
