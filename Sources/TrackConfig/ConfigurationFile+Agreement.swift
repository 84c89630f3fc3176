#if canImport(Glibc)
import Glibc
#endif
import TrackCore

extension ConfigurationFile {
    /// An order two engine settings must keep, because the engine relies on it.
    private struct Order {
        let lower: String
        let lowerValue: Double
        let upper: String
        let upperValue: Double
        /// Whether `lower` must be strictly below `upper`.
        let strict: Bool
        let unit: String
        let why: String

        var holds: Bool { strict ? lowerValue < upperValue : lowerValue <= upperValue }
    }

    /// Refuses settings that contradict each other, naming both, their values and why; at start and on reload.
    func checkAgreement(path: String) throws(ConfigurationError) {
        let orders = [
            Order(lower: "stopped_speed", lowerValue: engine.stoppedSpeed, upper: "moving_speed", upperValue: engine.movingSpeed,
                  strict: true, unit: "m/s",
                  why: "a moving vehicle stops below stopped_speed and starts from moving_speed, so with no room between "
                    + "them it would stop as soon as it started"),
            Order(lower: "moving_speed", lowerValue: engine.movingSpeed, upper: "certain_speed", upperValue: engine.certainSpeed,
                  strict: false, unit: "m/s",
                  why: "certain_speed means movement by itself, so it cannot be below the speed from which the vehicle may move"),
            Order(lower: "certain_speed", lowerValue: engine.certainSpeed, upper: "max_speed", upperValue: engine.maxSpeed,
                  strict: true, unit: "m/s",
                  why: "speeds above max_speed are thrown away as implausible, so certain_speed would never be reached"),
            Order(lower: "converged_horizontal_error", lowerValue: engine.convergedHorizontalError,
                  upper: "max_horizontal_error", upperValue: engine.maxHorizontalError, strict: false, unit: "m",
                  why: "positions settle until their error is within converged_horizontal_error, and a position with an "
                    + "error above max_horizontal_error is not used at all"),
        ]
        for order in orders where !order.holds {
            let lowerLine = lines["engine.\(order.lower)"]
            let upperLine = lines["engine.\(order.upper)"]
            func value(_ key: String, _ number: Double, _ line: Int?) -> String {
                "'engine.\(key)' (\(number.plain) \(order.unit)\(line == nil ? ", the default" : ""))"
            }
            throw .contradiction(
                path: path, line: [lowerLine, upperLine].compactMap { $0 }.max(),
                rule: "\(value(order.lower, order.lowerValue, lowerLine)) must be \(order.strict ? "below" : "at most") "
                    + "\(value(order.upper, order.upperValue, upperLine)): \(order.why)")
        }
        if daemon.autoStartOn == .ignition && obd.adapter == nil {
            throw .contradiction(
                path: path, line: lines["daemon.auto_start_on"],
                rule: "'daemon.auto_start_on' is 'ignition' but 'obd.adapter' names no adapter: trackd reads the "
                    + "engine through an OBD-II adapter (docs/obd.md); name one, or start trips at boot")
        }
        if daemon.ignitionOffAfter != nil && daemon.autoStartOn != .ignition {
            throw .contradiction(
                path: path, line: lines["daemon.ignition_off_after"],
                rule: "'daemon.ignition_off_after' is given but 'daemon.auto_start_on' is not 'ignition': only a trip "
                    + "the engine started is closed by it")
        }
        if mail.monthly == true && mail.to.isEmpty {
            throw .contradiction(
                path: path, line: lines["mail.monthly"],
                rule: "'mail.monthly' is true but 'mail.to' names nobody to send the month's report to: add "
                    + "'to: driver@example.org' (one address or a list) to the mail section, or leave monthly out")
        }
        if (web.certificate == nil) != (web.key == nil) {
            let (given, missing) = web.certificate == nil ? ("key", "certificate") : ("certificate", "key")
            throw .contradiction(
                path: path, line: lines["web.\(given)"],
                rule: "'web.\(given)' is given but 'web.\(missing)' is not: the page's HTTPS needs both the "
                    + "certificate and its private key (docs/web.md, \"HTTPS\"), or neither")
        }
    }

    /// Refuses an alert command whose program does not exist or may not be run, at load rather than at the first
    /// idle alert; a path with spaces that names nothing was probably meant as a program with arguments.
    func checkAlertProgram(path: String) throws(ConfigurationError) {
        guard let command = daemon.alertCommand, let program = command.first else { return }
        let line = lines["daemon.alert_command"]
        func refuse(_ reason: String) -> ConfigurationError {
            .unusableProgram(path: path, line: line, key: "alert_command", program: program, reason: reason)
        }
        var info = stat()
        guard stat(program, &info) == 0 else {
            let words = program.split(separator: " ")
            if command.count == 1, words.count > 1 {
                let list = words.map { $0.allSatisfy(\.isNumber) ? "\"\($0)\"" : String($0) }.joined(separator: ", ")
                throw refuse("does not exist: one string is one path, spaces and all; to give the program arguments, "
                    + "write a list: alert_command: [\(list)]")
            }
            throw refuse("does not exist (\(String(cString: strerror(errno))))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw refuse("is not a file") }
        guard access(program, X_OK) == 0 else {
            throw refuse("may not be run (\(String(cString: strerror(errno)))): make it executable for trackd's user "
                + "(chmod 755)")
        }
    }
}
