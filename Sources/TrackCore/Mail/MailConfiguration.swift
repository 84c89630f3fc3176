/// Who gets the month's report by e-mail, and how trackd sends it (the `mail:` section of trackd.conf;
/// docs/mail.md). Off while no address is named.
public struct MailConfiguration: Sendable, Hashable {
    /// The recipients; empty: trackd sends no mail.
    public var to: [MailAddress] = []
    /// The sender (the `From` header and msmtp's `--from`); `nil`: msmtp's account's `from`.
    public var from: MailAddress?
    /// msmtp's configuration file; `nil`: msmtp's own default (`~/.msmtprc`, then /etc/msmtprc).
    public var msmtpConfig: String?
    /// Whether trackd sends each ended month's report by itself; `nil`: yes when `to` names anyone.
    public var monthly: Bool?
    /// Seconds between attempts after a sending failed (with jitter: 0.75 to 1.25 times it).
    public var retryInterval = 900.0
    /// Seconds between looks at the calendar: how soon after a month's end its report goes.
    public var checkInterval = 60.0

    public init() {}

    /// Whether trackd sends the monthly report by itself: someone to send it to, and `monthly` not switched off.
    public var sendsMonthly: Bool {
        !to.isEmpty && (monthly ?? true)
    }
}
