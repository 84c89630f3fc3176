/// A rule the driver's own classifications suggest (docs/rules.md): the same pair of named places classified the
/// same way again and again. `number` is its place in the list (`trackctl rules add --suggestion 1`).
public struct RuleSuggestion: Sendable, Hashable, Codable {
    public var number: Int
    /// The rule to add, as `rule.add` takes it (its `text` set, its number the log's to give).
    public var rule: ClassificationRule
    /// The trips the driver classified so, oldest first.
    public var trips: [TripID]

    public init(number: Int, rule: ClassificationRule, trips: [TripID]) {
        self.number = number
        self.rule = rule
        self.trips = trips
    }
}
