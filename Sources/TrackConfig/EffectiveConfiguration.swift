#if canImport(Glibc)
import Glibc
#endif
import TrackCore

/// What trackd runs with: each setting from its command-line flag, else the configuration file, else systemd's
/// environment, else the built-in default.
public struct EffectiveConfiguration: Sendable, Hashable {
    /// The file that was read; `nil` when there was none (every default).
    public var path: String?
    public var source: SourceAddress
    public var stateDirectory: String
    public var socket: String
    public var controlGroup: String
    public var autoStart: TripKind?
    /// What starts it: boot, or the engine (through the OBD-II adapter).
    public var autoStartOn: AutoStartTrigger
    /// Seconds the engine must be off before a trip started by the ignition closes.
    public var ignitionOffAfter: Double
    public var logLevel: LogLevelName
    /// A program and its arguments, run on each idle alert; empty for none.
    public var alertCommand: [String]
    public var alertTimeout: Double
    public var engine: EngineConfiguration
    public var log: LogConfiguration
    /// The `profile:` section: values for the log's empty profile fields.
    public var profile: ProfileChanges
    /// The `privacy:` section.
    public var privacy: PrivacyPolicy
    /// The `uplink:` section; a password file named there is read when trackd starts.
    public var uplink: UplinkConfiguration
    /// The `mail:` section: the month's report by e-mail.
    public var mail: MailConfiguration
    /// The `obd:` section: the car's odometer, ignition and speed through an ELM327 adapter.
    public var obd: OBDConfiguration

    /// Settings given on the command line; `nil` leaves them to the file.
    public struct Overrides: Sendable, Hashable {
        public var source: SourceAddress?
        public var stateDirectory: String?
        public var socket: String?
        public var controlGroup: String?
        public var autoStart: AutoStart?
        public var logLevel: LogLevelName?

        public init(source: SourceAddress? = nil, stateDirectory: String? = nil, socket: String? = nil,
                    controlGroup: String? = nil, autoStart: AutoStart? = nil, logLevel: LogLevelName? = nil) {
            self.source = source
            self.stateDirectory = stateDirectory
            self.socket = socket
            self.controlGroup = controlGroup
            self.autoStart = autoStart
            self.logLevel = logLevel
        }
    }

    /// Combines the flags, the file and the environment.
    public init(file: ConfigurationFile, path: String?, overrides: Overrides = Overrides(),
                environment: [String: String] = [:]) {
        let daemon = file.daemon
        self.path = path
        source = overrides.source ?? daemon.resolvedSource ?? .default
        stateDirectory = overrides.stateDirectory ?? daemon.stateDirectory ?? environment["STATE_DIRECTORY"]
            ?? "/var/lib/trackd"
        socket = overrides.socket ?? daemon.socket ?? environment["RUNTIME_DIRECTORY"].map { "\($0)/control.sock" }
            ?? "\(stateDirectory)/control.sock"
        controlGroup = overrides.controlGroup ?? daemon.controlGroup ?? "trackd"
        autoStart = (overrides.autoStart ?? daemon.autoStart ?? AutoStart.none).kind
        autoStartOn = daemon.autoStartOn ?? .boot
        ignitionOffAfter = daemon.ignitionOffAfter ?? 300
        logLevel = overrides.logLevel ?? daemon.logLevel ?? .info
        alertCommand = daemon.alertCommand ?? []
        alertTimeout = daemon.alertTimeout ?? 10
        engine = file.engine
        log = file.log
        profile = file.profile
        privacy = file.privacy
        uplink = file.uplink
        obd = file.obd
        mail = file.mail
    }

    /// Reads the configuration trackd starts with: `explicitPath` (which must exist) when given, else the default
    /// path when a file is there, else every default.
    public static func load(explicitPath: String?, overrides: Overrides = Overrides(),
                            environment: [String: String]) throws(ConfigurationError) -> EffectiveConfiguration {
        let (file, path) = try ConfigurationFile.load(explicitPath: explicitPath, environment: environment)
        if let path { try file.checkAlertProgram(path: path) }
        return EffectiveConfiguration(file: file, path: path, overrides: overrides, environment: environment)
    }

    /// One line per daemon setting, as `trackd --check-config` prints them.
    public var summary: [String] {
        [
            "source         \(source)",
            "state_dir      \(stateDirectory)",
            "socket         \(socket)",
            "control_group  \(controlGroup)",
            "auto_start     \(autoStart?.rawValue ?? "none")"
                + (autoStartOn == .ignition ? " on ignition (closed after \(ignitionOffAfter.plain) s off)" : ""),
            "log_level      \(logLevel.rawValue)",
            "alert_command  \(alertCommand.isEmpty ? "none" : alertCommand.joined(separator: " ")) (timeout \(alertTimeout.plain) s)",
            "idle_alert     after \(engine.idleAlertAfter.plain) s stationary",
            "commits        every \(log.commitInterval.plain) s while moving; power-cut resume within \(log.resumeWithin.plain) s; "
                + "another program's lock waited for \(log.busyTimeout.plain) s",
            "monthly_mail   " + (mail.sendsMonthly
                ? "to \(mail.to.map(\.text).joined(separator: ", ")) through msmtp (\(mail.msmtpConfig ?? "its own configuration")); "
                    + "a failure tried again every \(mail.retryInterval.plain) s"
                : "off"),
            "obd            " + (obd.adapter.map { "the ELM327 adapter at \($0) (docs/obd.md)" } ?? "none: GPS only"),
        ]
    }
}
