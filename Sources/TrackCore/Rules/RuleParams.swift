/// `rule.add`: the rule (its number is the log's to give) and why.
public struct RuleAddParams: Sendable, Codable, Hashable {
    public var rule: ClassificationRule
    public var reason: String?

    public init(rule: ClassificationRule, reason: String? = nil) {
        self.rule = rule
        self.reason = reason
    }
}

/// `rule.edit`: which rule, what changes, and why. Trips it classified keep what it made of them.
public struct RuleEditParams: Sendable, Codable, Hashable {
    public var rule: RuleID
    public var changes: RuleChanges
    public var reason: String?

    public init(rule: RuleID, changes: RuleChanges, reason: String? = nil) {
        self.rule = rule
        self.changes = changes
        self.reason = reason
    }
}

/// `rule.delete`: which rule, and why. Trips it classified keep what it made of them and its text.
public struct RuleDeleteParams: Sendable, Codable, Hashable {
    public var rule: RuleID
    public var reason: String?

    public init(rule: RuleID, reason: String? = nil) {
        self.rule = rule
        self.reason = reason
    }
}

/// `confirm`: the trips a rule classified that the driver confirms (`ids`), or all of them still to confirm
/// (`all`).
public struct ConfirmParams: Sendable, Codable, Hashable {
    public var ids: [TripID]?
    public var all: Bool?
    /// Takes confirmations back instead (the page's undo): each trip named goes back to "to confirm", when its
    /// confirmation is the last change it had.
    public var undo: Bool?

    public init(ids: [TripID]? = nil, all: Bool? = nil, undo: Bool? = nil) {
        self.ids = ids
        self.all = all
        self.undo = undo
    }
}
