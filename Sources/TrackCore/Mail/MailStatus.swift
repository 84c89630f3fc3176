/// The month's report by e-mail as `status` shows it: who gets it, and whether trackd sends each ended month by
/// itself; `status` leaves it out while trackd.conf's `mail:` section names nobody.
public struct MailStatus: Sendable, Codable, Hashable {
    /// The recipients (bare addresses).
    public var to: [String]
    /// Whether trackd sends each ended month's report by itself (else only when asked: `report.mail`).
    public var monthly: Bool

    public init(to: [String], monthly: Bool) {
        self.to = to
        self.monthly = monthly
    }

    /// What `status` shows for `configuration`; `nil` when it names nobody.
    public init?(_ configuration: MailConfiguration) {
        guard !configuration.to.isEmpty else { return nil }
        self.init(to: configuration.to.map(\.text), monthly: configuration.sendsMonthly)
    }
}
