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
        Setting(key: key, summary: summary, differs: { $0[keyPath: field] != $1[keyPath: field] }) { configuration, node, context throws(ConfigurationError) in
            var scalars: [YAMLNode.Scalar] = []
            switch node {
            case .scalar(let scalar): scalars = [scalar]
            case .sequence(let sequence, _):
                for item in sequence {
                    guard case .scalar(let scalar) = item else {
                        throw .badValue(path: context.path, line: item.mark.line, key: key, value: "(a list or mapping)",
                                        expected: "an e-mail address for each item")
                    }
                    scalars.append(scalar)
                }
            default:
                throw .badValue(path: context.path, line: node.mark.line, key: key, value: "(a mapping)",
                                expected: "an e-mail address, or a list: [driver@example.org, tax@example.com]")
            }
            guard !scalars.isEmpty else {
                throw .badValue(path: context.path, line: node.mark.line, key: key, value: "[]",
                                expected: "at least one e-mail address (leave the key out to send no mail)")
            }
            var addresses: [MailAddress] = []
            for scalar in scalars {
                switch address(scalar.text) {
                case .success(let address): addresses.append(address)
                case .failure(let expected):
                    throw .badValue(path: context.path, line: scalar.mark.line, key: key,
                                    value: scalar.text, expected: expected.description)
                }
            }
            configuration[keyPath: field] = addresses
        }
    }
}
