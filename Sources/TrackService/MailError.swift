/// Why a mail did not go out. msmtp's own words are kept as the cause; nothing was sent in any of these cases, so
/// sending again is safe.
public enum MailError: Error, Sendable, Hashable, CustomStringConvertible {
    /// msmtp is not installed where trackd looks for it.
    case msmtpMissing(path: String)
    /// msmtp could not be started for another reason (the system's words).
    case cannotStart(path: String, reason: String)
    /// msmtp's configuration is missing, unreadable, too open, or names no usable account.
    case configuration(file: String?, cause: String)
    /// The mail server could not be reached: no such host, nothing listening, no network, a time-out.
    case serverUnreachable(cause: String)
    /// The TLS handshake or STARTTLS failed: a certificate not trusted, a server without TLS.
    case tlsFailed(cause: String)
    /// The server refused the user name or password.
    case authenticationFailed(cause: String)
    /// The server refused the sender, a recipient or the message.
    case refused(cause: String)
    /// msmtp took longer than `seconds` and was stopped.
    case timedOut(seconds: Double)
    /// trackd stopped while msmtp ran.
    case stopped
    /// msmtp failed in another way: its exit status (or the signal that ended it) and its words.
    case failed(status: String, cause: String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .msmtpMissing(let path):
            "msmtp is not installed (\(path) does not exist): install it (apt install msmtp) and configure it as "
                + "docs/mail.md says"
        case .cannotStart(let path, let reason):
            "cannot start \(path): \(reason)"
        case .configuration(let file, let cause):
            "msmtp's configuration \(file.map { "(\($0)) " } ?? "")is not usable: \(cause); see docs/mail.md "
                + "(the file must belong to the user who sends and be readable by that user only)"
        case .serverUnreachable(let cause):
            "the mail server cannot be reached: \(cause); check the host and port in msmtp's configuration and "
                + "the network; nothing was sent, so sending again is safe"
        case .tlsFailed(let cause):
            "the TLS connection to the mail server failed: \(cause); check tls, tls_starttls and tls_trust_file in "
                + "msmtp's configuration"
        case .authenticationFailed(let cause):
            "the mail server refused the login: \(cause); check user and password (or passwordeval) in msmtp's "
                + "configuration"
        case .refused(let cause):
            "the mail server refused the message: \(cause); check the addresses and the account's from address"
        case .timedOut(let seconds):
            "msmtp did not finish within \(Int(seconds)) seconds and was stopped; the server may be slow or "
                + "unreachable; nothing is known to have been sent"
        case .stopped:
            "trackd stopped while msmtp was sending"
        case .failed(let status, let cause):
            "msmtp failed (\(status)): \(cause)"
        }
    }
}
