/// What a reload (SIGHUP, `systemctl reload trackd`) changes: the settings trackd takes on at once, and those that
/// wait for its next start because they name what it holds open (the source, the log, the socket) or what it does
/// only when it starts.
public struct ConfigurationChanges: Sendable, Hashable {
    /// Keys whose new values trackd uses from now on (`engine.idle_alert_after`, `daemon.alert_command`, …).
    public private(set) var applied: [String] = []
    /// Keys whose new values wait for trackd's next start.
    public private(set) var atNextStart: [String] = []

    /// The differences between what trackd runs with and what it has just read.
    public init(from old: EffectiveConfiguration, to new: EffectiveConfiguration) {
        note("daemon.source", old.source != new.source, live: false)
        note("daemon.state_dir", old.stateDirectory != new.stateDirectory, live: false)
        note("daemon.socket", old.socket != new.socket, live: false)
        note("daemon.control_group", old.controlGroup != new.controlGroup, live: false)
        note("daemon.auto_start", old.autoStart != new.autoStart, live: false)
        note("daemon.auto_start_on", old.autoStartOn != new.autoStartOn, live: false)
        note("daemon.ignition_off_after", old.ignitionOffAfter != new.ignitionOffAfter, live: false)
        note("daemon.log_level", old.logLevel != new.logLevel, live: true)
        note("daemon.alert_command", old.alertCommand != new.alertCommand, live: true)
        note("daemon.alert_timeout", old.alertTimeout != new.alertTimeout, live: true)
        for setting in EngineSettings.all {
            note("engine.\(setting.key)", setting.differs?(old.engine, new.engine) ?? (old.engine != new.engine), live: true)
        }
        note("log", old.log != new.log, live: false)
        for setting in PrivacySettings.all {
            note("privacy.\(setting.key)", setting.differs?(old.privacy, new.privacy) ?? (old.privacy != new.privacy),
                 live: true)
        }
        note("profile", old.profile != new.profile, live: true)
        note("uplink", old.uplink != new.uplink, live: true)
        note("mail", old.mail != new.mail, live: false)
        note("obd", old.obd != new.obd, live: true)
    }

    /// Whether the file says what trackd already runs with.
    public var isEmpty: Bool { applied.isEmpty && atNextStart.isEmpty }

    private mutating func note(_ key: String, _ changed: Bool, live: Bool) {
        guard changed else { return }
        if live { applied.append(key) } else { atNextStart.append(key) }
    }
}
