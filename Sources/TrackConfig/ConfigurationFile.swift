#if canImport(Glibc)
import Glibc
#endif
import TrackCore

/// trackd's configuration file (`/etc/trackd/trackd.conf`): YAML, with the sections `daemon:` (`DaemonSettings`),
/// `engine:` (`EngineSettings`), `log:` (`LogSettings`), `privacy:` (`PrivacySettings`), `profile:`
/// (`ProfileSettings`), `uplink:` (`UplinkSettings`), `mail:` (`MailSettings`) and `web:` (`WebSettings`, read by
/// trackd-web).
///
/// ```yaml
/// daemon:
///   source: serial:///dev/gps0?baud=9600
///   auto_start: business
/// engine:
///   idle_alert_after: 7200      # seconds
///   max_horizontal_error: 50    # metres
/// log:
///   commit_interval: 30         # seconds, while moving
///   resume_within: 300          # seconds
/// ```
///
/// A key the file does not give keeps its default. An unknown key or a bad value is an error that names the key,
/// the line and what would be right; nothing is half-applied.
public struct ConfigurationFile: Sendable {
    public var daemon: DaemonConfiguration
    public var engine: EngineConfiguration
    public var log: LogConfiguration
    /// Values for the log's empty profile fields.
    public var profile: ProfileChanges
    /// What is kept of where the car went, and for how long.
    public var privacy: PrivacyPolicy
    /// Where the data leaves the car to.
    public var uplink = UplinkConfiguration()
    /// Who gets the month's report by e-mail.
    public var mail = MailConfiguration()
    /// The driver's page's certificate and key (trackd-web's).
    public var web = WebConfiguration()
    /// The OBD-II adapter.
    public var obd = OBDConfiguration()
    /// Which USB sticks take the reports (trackd-stick's).
    public var stick = StickConfiguration()
    /// The line of each key the file gives, as `section.key` (`engine.stopped_speed`), for messages.
    public var lines: [String: Int] = [:]

    public init(daemon: DaemonConfiguration = DaemonConfiguration(), engine: EngineConfiguration = EngineConfiguration(),
                log: LogConfiguration = LogConfiguration(), profile: ProfileChanges = ProfileChanges(),
                privacy: PrivacyPolicy = PrivacyPolicy()) {
        self.privacy = privacy
        self.daemon = daemon
        self.engine = engine
        self.log = log
        self.profile = profile
    }

    /// Where trackd looks when no `--config` is given: `$CONFIGURATION_DIRECTORY/trackd.conf` under systemd
    /// (`ConfigurationDirectory=trackd`), else `/etc/trackd/trackd.conf`.
    public static func defaultPath(environment: [String: String]) -> String {
        "\(environment["CONFIGURATION_DIRECTORY"] ?? "/etc/trackd")/trackd.conf"
    }

    /// The top-level sections.
    static let sections = ["daemon", "engine", "log", "privacy", "profile", "uplink", "mail", "web", "obd", "stick"]

    /// The file `explicitPath` names (it must exist), else the one at the default path when it exists, else every
    /// default (and no path): how trackd and trackd-web find their configuration.
    public static func load(explicitPath: String?,
                            environment: [String: String]) throws(ConfigurationError) -> (file: ConfigurationFile, path: String?) {
        let path = explicitPath ?? defaultPath(environment: environment)
        guard explicitPath != nil || access(path, F_OK) == 0 else { return (ConfigurationFile(), nil) }
        return (try load(path: path), path)
    }

    /// Reads and checks the file at `path`. An empty file, or `/dev/null`, gives every default.
    public static func load(path: String) throws(ConfigurationError) -> ConfigurationFile {
        try parse(try read(path), path: path)
    }

    /// The text of the file at `path`, with the system's reason when it cannot be read (read as bytes: a device
    /// such as /dev/null reads as empty).
    static func read(_ path: String) throws(ConfigurationError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
            throw .cannotRead(path: path, reason: reason)
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes += buffer.prefix(count)
            guard bytes.count <= 1 << 20 else { throw .cannotRead(path: path, reason: "larger than 1 MiB: not a configuration") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .cannotRead(path: path, reason: "not UTF-8 text")
        }
        return text
    }

    /// Checks `text` as the contents of a file called `path` (for messages).
    public static func parse(_ text: String, path: String) throws(ConfigurationError) -> ConfigurationFile {
        let root: YAMLNode?
        do {
            root = try YAMLComposer.compose(text)
        } catch {
            throw .syntax(path: path, line: error.mark?.line, message: error.summary)
        }
        var file = ConfigurationFile()
        guard let root else { return file }  // an empty file: all defaults
        guard case .mapping(let mapping, _) = root else { throw .notAMapping(path: path, line: root.mark.line, key: "(top level)") }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            if case .mapping(let section, _) = value {
                for (inner, _) in section {
                    file.lines["\(key).\(inner.string ?? "")"] = inner.mark.line
                }
            }
            switch key {
            case "daemon":
                try Setting.section(value, named: key, settings: DaemonSettings.all, into: &file.daemon, path: path)
            case "profile":
                try Setting.section(value, named: key, settings: ProfileSettings.all, into: &file.profile, path: path)
            case "engine":
                try Setting.section(value, named: key, settings: EngineSettings.all, into: &file.engine, path: path)
            case "log":
                try Setting.section(value, named: key, settings: LogSettings.all, into: &file.log, path: path)
            case "privacy":
                try Setting.section(value, named: key, settings: PrivacySettings.all, into: &file.privacy, path: path)
            case "uplink":
                try Setting.section(value, named: key, settings: UplinkSettings.all, into: &file.uplink, path: path)
            case "mail":
                try Setting.section(value, named: key, settings: MailSettings.all, into: &file.mail, path: path)
            case "web":
                try Setting.section(value, named: key, settings: WebSettings.all, into: &file.web, path: path)
            case "obd":
                try Setting.section(value, named: key, settings: OBDSettings.all, into: &file.obd, path: path)
            case "stick":
                try Setting.section(value, named: key, settings: StickSettings.all, into: &file.stick, path: path)
            default:
                throw .unknownKey(path: path, line: keyNode.mark.line, key: key, known: sections)
            }
        }
        try file.checkAgreement(path: path)
        return file
    }
}
