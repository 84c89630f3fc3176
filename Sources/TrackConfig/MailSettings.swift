import TrackCore

/// The keys of the `mail:` section: the month's report by e-mail (docs/mail.md).
enum MailSettings {
    static let all: [Setting<MailConfiguration>] = [
        addresses("to", \.to, "who gets the month's report: one address or a list"),
        .parsed("from", \.from, "the sender (default: msmtp's account's from)", address),
        .text("msmtp_config", \.msmtpConfig, "msmtp's configuration file (default: msmtp's own, ~/.msmtprc or /etc/msmtprc)",
              check: DaemonSettings.absolutePath),
        .parsed("monthly", \.monthly, "whether trackd sends each ended month's report by itself (default: true when to is given)") { text in
            switch text.lowercased() {
            case "true", "yes", "on": .success(true)
            case "false", "no", "off": .success(false)
            default: .failure(ExpectedValue("true or false"))
            }
        },
        .number("retry_interval", \.retryInterval, 1...86_400, "s", "seconds between attempts after a sending failed"),
        .number("check_interval", \.checkInterval, 1...3600, "s",
                "seconds between looks at the calendar (how soon after a month's end its report goes)"),
    ]

    static var keys: [String] { all.map(\.key) }

    @Sendable static func address(_ text: String) -> Result<MailAddress, ExpectedValue> {
        do {
            return .success(try MailAddress(text))
        } catch {
            let example = "a bare e-mail address such as driver@example.org, without a name or angle brackets"
            switch error {
            case .empty: return .failure(ExpectedValue(example))
            case .invalid(_, let reason): return .failure(ExpectedValue("\(example) (\(reason))"))
            }
        }
    }

    /// One address, or a list of them (at least one).
    static func addresses(_ key: String, _ field: any WritableKeyPath<MailConfiguration, [MailAddress]> & Sendable,
                          _ summary: String) -> Setting<MailConfiguration> {
        .list(key, field, summary, item: "an e-mail address",
              example: "an e-mail address, or a list: [driver@example.org, tax@example.com]",
              whenEmpty: "at least one e-mail address (leave the key out to send no mail)", address)
    }
}
