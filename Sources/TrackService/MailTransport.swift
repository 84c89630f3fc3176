import FoundationEssentials
import TrackCore
import TrackReports

/// Hands a message to Debian's msmtp through its sendmail interface: `msmtp [--file=CONFIG] [--from=ADDR] -- TO…`,
/// the message on standard input. msmtp's configuration holds the server, its port, TLS or STARTTLS, the login and
/// the password (or `passwordeval`); trackd writes no SMTP of its own. msmtp keeps no queue: a mail that failed is
/// sent again by whoever asked for it (the log records what went out). docs/mail.md.
public struct MailTransport: Sendable {
    /// Where Debian installs msmtp.
    public static let defaultProgram = "/usr/bin/msmtp"
    /// msmtp's own time-out is its `timeout` setting; this one stops a run that hangs beyond it, seconds.
    public static let defaultTimeout = 300.0

    /// msmtp's path.
    public let program: String
    /// msmtp's configuration file; `nil` for its own default (`~/.msmtprc`, then /etc/msmtprc).
    public let configFile: String?
    public let timeout: Double

    public init(configFile: String? = nil, program: String = defaultProgram, timeout: Double = defaultTimeout) {
        self.program = program
        self.configFile = configFile
        self.timeout = timeout
    }

    /// msmtp's command line for `message`: the configuration, the envelope sender when the message names one, and
    /// the recipients after `--`.
    public func command(for message: MailMessage) -> [String] {
        var arguments = [program]
        if let configFile { arguments.append("--file=\(configFile)") }
        if let from = message.from { arguments.append("--from=\(from.text)") }
        arguments.append("--")
        arguments += message.to.map(\.text)
        return arguments
    }

    /// Sends `message` to its `To` addresses; returns once the server accepted it, throws when it did not.
    public func send(_ message: MailMessage) async throws(MailError) {
        if let configFile, !FileManager.default.fileExists(atPath: configFile) {
            throw .configuration(file: configFile, cause: "no such file")
        }
        var run = AlertCommandRun(command: command(for: message), environment: [:], timeout: timeout)
        run.input = message.bytes
        run.threadName = "trackd-mail"
        run.outputLimit = 8192
        let outcome = await run.run()
        if let error = Self.failure(outcome, program: program, configFile: configFile, timeout: timeout) {
            throw error
        }
    }

    /// What a run of msmtp came to: `nil` when the server accepted the message, else the failure, told apart by
    /// msmtp's words (its exit statuses, from sysexits.h, do not separate a refused login from a refused mail).
    static func failure(_ outcome: AlertCommandRun.Outcome, program: String, configFile: String?,
                        timeout: Double) -> MailError? {
        let lines = outcome.output.split(whereSeparator: \.isNewline)
            .map { $0.hasPrefix("msmtp: ") ? String($0.dropFirst(7)) : String($0) }
        let cause = lines.joined(separator: "; ")
        switch outcome.ending {
        case .exited(0): return nil
        case .cannotStart(let reason):
            return FileManager.default.fileExists(atPath: program) ? .cannotStart(path: program, reason: reason)
                : .msmtpMissing(path: program)
        case .timedOut: return .timedOut(seconds: timeout)
        case .stopped: return .stopped
        case .killed(let signal): return .failed(status: "signal \(signal)", cause: cause)
        case .exited(let status):
            // Not the closing "could not send mail (account default from FILE)": a file name must not decide.
            let text = lines.filter { !$0.hasPrefix("could not send mail") }.joined(separator: "; ").lowercased()
            func says(_ words: String...) -> Bool { words.contains { text.contains($0) } }
            // EX_CONFIG: a word such as "tls" in it names a setting, not the connection.
            if status == 78 { return .configuration(file: configFile, cause: cause) }
            if says("tls", "certificate", "starttls") { return .tlsFailed(cause: cause) }
            if says("authentication failed", "authentication method") || status == 77 {
                return .authenticationFailed(cause: cause)
            }
            if says("cannot connect", "cannot locate host", "connection refused", "network is unreachable",
                    "timed out", "timeout", "no route to host") {
                return .serverUnreachable(cause: cause)
            }
            if says("not accepted", "refused", "server message") { return .refused(cause: cause) }
            if says("configuration", "account", "permission", "password", "no such file") {
                return .configuration(file: configFile, cause: cause)
            }
            return .failed(status: "exit status \(status)", cause: cause.isEmpty ? "it said nothing" : cause)
        }
    }
}
