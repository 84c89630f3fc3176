/// A phone or laptop that may open the page, as `trackctl web devices` lists it.
public struct PairedDevice: Sendable, Codable, Equatable {
    /// The number `trackctl web revoke` takes.
    public var id: Int64
    /// What the person pairing called it ("Anna's phone"), or the browser's own description.
    public var name: String
    public var role: WebRole
    /// When it was paired, seconds since 1970 by the board's clock (shown, never compared).
    public var pairedAt: Int64
    /// The last request it made, seconds since 1970 by the board's clock, to the nearest few minutes.
    public var lastUsedAt: Int64?
    /// When its session was ended, if it was.
    public var revokedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, name, role
        case pairedAt = "paired_at"
        case lastUsedAt = "last_used_at"
        case revokedAt = "revoked_at"
    }

    public init(id: Int64, name: String, role: WebRole, pairedAt: Int64, lastUsedAt: Int64?, revokedAt: Int64?) {
        self.id = id
        self.name = name
        self.role = role
        self.pairedAt = pairedAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }
}
