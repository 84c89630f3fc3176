/// What `rule.edit` changes in a rule; `nil` leaves a field as it is, an empty text clears it. A rule's condition
/// does not change: a rule for other places or hours is a new rule.
public struct RuleChanges: Sendable, Hashable, Codable {
    public var kind: TripKind?
    public var commute: Bool?
    public var purpose: String?
    public var customer: String?
    public var state: RuleState?

    public init(kind: TripKind? = nil, commute: Bool? = nil, purpose: String? = nil, customer: String? = nil,
                state: RuleState? = nil) {
        self.kind = kind
        self.commute = commute
        self.purpose = purpose
        self.customer = customer
        self.state = state
    }

    /// Whether the edit asks for anything.
    public var isEmpty: Bool {
        kind == nil && commute == nil && purpose == nil && customer == nil && state == nil
    }

    /// The rule with these changes (a commute makes it private; another kind ends the commute).
    public func applied(to rule: ClassificationRule) -> ClassificationRule {
        var rule = rule
        if let kind { rule.kind = kind }
        if let commute {
            rule.commute = commute
            if commute && kind == nil { rule.kind = .private }
        }
        if rule.kind != .private { rule.commute = false }
        if let purpose { rule.purpose = purpose.trimmed.isEmpty ? nil : purpose.trimmed }
        if let customer { rule.customer = customer.trimmed.isEmpty ? nil : customer.trimmed }
        if let state { rule.state = state }
        return rule
    }
}
