import Logging
import ServiceLifecycle
import TrackConfig
import TrackCore
import TrackInput
import TrackStore
import UnixSignals

/// Reloads the configuration on SIGHUP (`systemctl reload trackd`). The engine's settings, the alert command, the
/// log level, the profile defaults and the uplinks' settings apply at once, the running trip carrying on; a changed source, state folder,
/// socket, control group, auto-start or `log:` section is logged as waiting for the next start. A file that no
/// longer reads changes nothing: trackd keeps what it runs with and says why, naming the key and line.
public struct ReloadService: Service {
    /// Where reloaded settings go.
    public struct Targets: Sendable {
        /// The tracker's inbox (for the engine's settings).
        public var tracker: TrackerInbox
        public var alerts: AlertSettings
        /// The uplinks' settings, when an uplink runs (`nil`: none was configured at the start).
        public var uplink: LiveUplinkConfiguration?
        /// The OBD-II adapter's settings (`nil`: no OBD service runs).
        public var obd: LiveOBDConfiguration?
        /// The environment, for the systemd credential that may hold the broker's password.
        public var environment: [String: String]
        public var setLogLevel: @Sendable (LogLevelName) -> Void
        /// The log whose empty profile fields the `profile:` section fills; `nil` for none.
        public var log: MileageLog?
        /// The time of day for the profile's revisions (the daemon's one wall-clock reader).
        public var wallClock: @Sendable () -> UTCTime

        public init(tracker: TrackerInbox, alerts: AlertSettings, uplink: LiveUplinkConfiguration? = nil,
                    obd: LiveOBDConfiguration? = nil, environment: [String: String] = [:],
                    setLogLevel: @escaping @Sendable (LogLevelName) -> Void, log: MileageLog?,
                    wallClock: @escaping @Sendable () -> UTCTime = WallClock.now) {
            self.tracker = tracker
            self.alerts = alerts
            self.uplink = uplink
            self.obd = obd
            self.environment = environment
            self.setLogLevel = setLogLevel
            self.log = log
            self.wallClock = wallClock
        }
    }

    private let hangups: UnixSignalsSequence
    private let initial: EffectiveConfiguration
    private let load: @Sendable () throws(ConfigurationError) -> EffectiveConfiguration
    private let targets: Targets
    private let notify: @Sendable (String) -> Void
    private let logger: Logger

    /// `hangups` should be made before trackd tells systemd it is ready, so that no SIGHUP meets the default
    /// action (ending the process). `load` reads the file again, with the command line's overrides.
    public init(hangups: UnixSignalsSequence, running initial: EffectiveConfiguration,
                load: @escaping @Sendable () throws(ConfigurationError) -> EffectiveConfiguration, targets: Targets,
                notify: @escaping @Sendable (String) -> Void, logger: Logger) {
        self.hangups = hangups
        self.initial = initial
        self.load = load
        self.targets = targets
        self.notify = notify
        self.logger = logger
    }

    public func run() async {
        await cancelWhenGracefulShutdown {
            var running = initial
            for await _ in hangups {
                running = await reload(running)
            }
        }
    }

    /// Reads the file again and applies what changed; returns what trackd runs with afterwards.
    func reload(_ running: EffectiveConfiguration) async -> EffectiveConfiguration {
        notify("RELOADING=1\nSTATUS=reloading the configuration")
        defer { notify("READY=1") }
        let new: EffectiveConfiguration
        do {
            new = try load()
        } catch {
            logger.error("configuration not reloaded: trackd carries on with the settings it has",
                         metadata: ["error": "\(error)", "config": "\(running.path ?? "none")"])
            return running
        }
        let changes = ConfigurationChanges(from: running, to: new)
        // What trackd runs with from now on; each part that differs goes where it is used.
        var next = running.reloading(new)
        if next.uplink != running.uplink {
            if let uplink = targets.uplink {
                do throws(UplinkPasswordFile.Failure) {
                    var password: String?
                    if next.uplink.mqtt != nil, let path = UplinkPasswordFile.path(configured: next.uplink.passwordFile,
                                                                                   environment: targets.environment) {
                        password = try UplinkPasswordFile.read(path)
                    }
                    uplink.update(configuration: next.uplink, password: password)
                } catch {
                    logger.error("the uplink's new settings are not used: trackd carries on with those it has",
                                 metadata: ["error": "\(error)"])
                    next.uplink = running.uplink
                }
            } else {
                logger.warning("an uplink not configured when trackd started waits for its next start (systemctl restart trackd)")
            }
        }
        if next.engine != running.engine {
            switch targets.tracker.send(.reconfigure(next.engine)) {
            case .enqueued: break
            case .busy:
                logger.error("the engine's new settings could not be queued (too many commands waiting); reload again")
                return running
            case .closed:
                return running
            }
        }
        if next.privacy != running.privacy || next.profile != running.profile {
            if case .busy = targets.tracker.send(.privacy(next.privacy, profile: next.profile)) {
                logger.error("the new privacy settings could not be queued (too many commands waiting); reload again")
                return running
            }
        }
        if next.obd != running.obd { targets.obd?.update(next.obd) }
        if next.logLevel != running.logLevel { targets.setLogLevel(next.logLevel) }
        if next.alertCommand != running.alertCommand || next.alertTimeout != running.alertTimeout {
            targets.alerts.values = AlertSettings.Values(command: next.alertCommand, timeout: next.alertTimeout)
        }
        if next.profile != running.profile, let log = targets.log {
            await ProfileDefaults.apply(next.profile, from: next.path, to: log, at: targets.wallClock(), logger: logger)
        }
        logger.notice("configuration reloaded", metadata: [
            "config": "\(new.path ?? "none")",
            "applied": "\(changes.applied.isEmpty ? "nothing changed" : changes.applied.joined(separator: ", "))",
        ])
        if !changes.atNextStart.isEmpty {
            logger.warning("changed settings wait for trackd's next start (systemctl restart trackd)",
                           metadata: ["keys": "\(changes.atNextStart.joined(separator: ", "))"])
        }
        return next
    }
}
