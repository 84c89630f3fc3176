import TrackCore

/// The keys of the `daemon:` section: each with its meaning and the values it takes.
enum DaemonSettings {
    static let all: [Setting<DaemonConfiguration>] = [
        .parsed("source", \.source,
                "where fixes come from: gpsd://HOST:PORT, serial:///dev/DEVICE?baud=N, file:///PATH?speed=N or auto") { text in
            do throws(SourceAddressError) {
                return .success(ConfiguredSource(address: try SourceAddress(parsing: text), namesBaud: text.contains("baud=")))
            } catch {
                return .failure(ExpectedValue(error.hint))
            }
        },
        .parsed("baud", \.baud, "baud rate of a serial source whose address names none") { text in
            guard let value = Int(text), SourceAddress.supportedBaudRates.contains(value) else {
                return .failure(ExpectedValue("one of " + SourceAddress.supportedBaudRates.map(String.init).joined(separator: ", ")))
            }
            return .success(value)
        },
        .text("state_dir", \.stateDirectory, "folder of the mileage log and the month's exports", check: absolutePath),
        .text("socket", \.socket, "the control socket's path", check: absolutePath),
        .text("control_group", \.controlGroup, "members of this group may change the log over the socket"),
        .choice("auto_start", \.autoStart, "the kind of trip started at boot (ignition on), or none"),
        .choice("auto_start_on", \.autoStartOn, "what starts that trip: boot, or ignition (the engine, through obd.adapter)"),
        .number("ignition_off_after", \.ignitionOffAfter, 5...3600, "s",
                "with auto_start_on: ignition, the trip closes once the engine has been off this long"),
        .choice("log_level", \.logLevel, "the least important messages logged"),
        .command("alert_command", \.alertCommand, "a program run on each idle alert, with its arguments"),
        .number("alert_timeout", \.alertTimeout, 1...600, "s", "the alert command is stopped after this long"),
    ]

    static var keys: [String] { all.map(\.key) }

    @Sendable static func absolutePath(_ text: String) -> String? {
        text.hasPrefix("/") ? nil : "an absolute path (starting with /)"
    }
}

extension SourceAddressError {
    /// What would be right, without repeating the value.
    var hint: String {
        switch self {
        case .malformed(_, let hint): hint
        }
    }
}
