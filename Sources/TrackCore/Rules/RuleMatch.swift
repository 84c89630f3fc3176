/// What a rule makes of a trip: the rule and the fields it gives (filled only where the trip has none).
public struct RuleMatch: Sendable, Hashable {
    public var rule: ClassificationRule
    public var kind: TripKind
    public var commute: Bool
    public var purpose: String?
    public var customer: String?
    public var destination: String?
    /// The rule as the trip and its history keep it: `Office ↔ Example Ltd`.
    public var text: String

    public init(rule: ClassificationRule, kind: TripKind, commute: Bool, purpose: String?, customer: String?,
                destination: String?, text: String) {
        self.rule = rule
        self.kind = kind
        self.commute = commute
        self.purpose = purpose
        self.customer = customer
        self.destination = destination
        self.text = text
    }
}
