import TrackCore

/// How trackd runs: the `daemon:` section of the configuration file. A key the file leaves out is `nil` here, so
/// that a command-line flag, then systemd's environment (`$STATE_DIRECTORY`, `$RUNTIME_DIRECTORY`), then the
/// built-in default decide in that order.
public struct DaemonConfiguration: Sendable, Hashable {
    /// Where fixes come from (`gpsd://localhost:2947` when not given).
    public var source: ConfiguredSource?
    /// Baud rate for a serial source whose address names none.
    public var baud: Int?
    /// Folder of the mileage log and the month's exports.
    public var stateDirectory: String?
    /// The control socket's path.
    public var socket: String?
    /// Members of this group may change the log over the socket (`trackd` when not given).
    public var controlGroup: String?
    /// The kind of trip started at boot (ignition on); `.none` for no trip.
    public var autoStart: AutoStart?
    /// When that trip starts: at boot, or each time the engine starts (read through the OBD-II adapter).
    public var autoStartOn: AutoStartTrigger?
    /// With `autoStartOn` ignition: seconds the engine must be off before the trip closes.
    public var ignitionOffAfter: Double?
    /// The least important messages logged.
    public var logLevel: LogLevelName?
    /// A program and its arguments, run on each idle alert; empty for none.
    public var alertCommand: [String]?
    /// Seconds the alert command may run before it is stopped.
    public var alertTimeout: Double?

    public init() {}

    /// The source with `baud` applied to a serial address that names no baud rate of its own.
    public var resolvedSource: SourceAddress? {
        guard let source else { return nil }
        guard case .serial(let path, _) = source.address, let baud, !source.namesBaud else { return source.address }
        return .serial(path: path, baud: baud)
    }
}

/// The `source` key: the address, and whether it named its own baud rate (which `baud` then leaves alone).
public struct ConfiguredSource: Sendable, Hashable {
    public var address: SourceAddress
    public var namesBaud: Bool
}

/// `auto_start_on`: what starts the `auto_start` trip.
public enum AutoStartTrigger: String, Sendable, Hashable, CaseIterable {
    /// trackd's start: a board switched with the ignition.
    case boot
    /// The engine starting, read through the OBD-II adapter (`obd.adapter`): a board that stays powered. The trip
    /// closes once the engine has been off for `ignition_off_after`.
    case ignition
}

/// `auto_start`: a trip kind, or `none`.
public enum AutoStart: String, Sendable, Hashable, CaseIterable {
    case business, `private`, unclassified, none

    /// The trip kind to start, `nil` for none.
    public var kind: TripKind? { TripKind(rawValue: rawValue) }
}

/// `log_level`: the names swift-log's levels have.
public enum LogLevelName: String, Sendable, Hashable, CaseIterable {
    case trace, debug, info, notice, warning, error, critical
}
