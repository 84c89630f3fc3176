/// An erasure asked over the socket (`trackctl erase`).
public struct EraseParams: Sendable, Hashable, Codable {
    public var target: ErasureTarget
    /// Routes: only of trips dated before this day.
    public var before: CivilDate?
    /// Routes: only of private trips.
    public var privateOnly: Bool
    /// Why; recorded with the erasure.
    public var reason: String?
    /// Only say what would be erased.
    public var dryRun: Bool
    /// `all`: erase business trips the retention period still covers.
    public var ignoreRetention: Bool

    public init(target: ErasureTarget, before: CivilDate? = nil, privateOnly: Bool = false, reason: String? = nil,
                dryRun: Bool = false, ignoreRetention: Bool = false) {
        self.target = target
        self.before = before
        self.privateOnly = privateOnly
        self.reason = reason
        self.dryRun = dryRun
        self.ignoreRetention = ignoreRetention
    }

    enum CodingKeys: String, CodingKey {
        case target, before, reason
        case privateOnly = "private_only"
        case dryRun = "dry_run"
        case ignoreRetention = "ignore_retention"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        target = try c.decode(ErasureTarget.self, forKey: .target)
        before = try c.decodeIfPresent(CivilDate.self, forKey: .before)
        privateOnly = try c.decodeIfPresent(Bool.self, forKey: .privateOnly) ?? false
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
        dryRun = try c.decodeIfPresent(Bool.self, forKey: .dryRun) ?? false
        ignoreRetention = try c.decodeIfPresent(Bool.self, forKey: .ignoreRetention) ?? false
    }

    /// In words: "routes of private trips dated before 2026-01-01".
    public var scope: String {
        switch target {
        case .routes:
            return "routes of " + (privateOnly ? "private trips" : "trips") + (before.map { " dated before \($0)" } ?? "")
        case .profile:
            return "the driver, plate and company in the profile and its history"
        case .all:
            return "every trip, track, reading, regular trip, the profile and the history"
        }
    }
}
