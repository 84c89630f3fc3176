/// What an auditor would question in the log: the entry, the rule and what would fix it.
public struct LogFinding: Sendable, Hashable, Codable {
    /// The rules `LogCheck` applies.
    public enum Rule: String, Sendable, Hashable, Codable, CaseIterable {
        case profileDriver = "profile-driver"
        case profilePlate = "profile-plate"
        case unclassified
        case toConfirm = "to-confirm"
        case purposeMissing = "purpose-missing"
        case purposeVague = "purpose-vague"
        case customerMissing = "customer-missing"
        case destinationMissing = "destination-missing"
        case postcodesMissing = "postcodes-missing"
        case notPrompt = "not-prompt"
        case odometerGap = "odometer-gap"
        case odometerOverlap = "odometer-overlap"
        case rateUnconfirmed = "rate-unconfirmed"
    }

    public var rule: Rule
    /// The entry, or `nil` for the profile.
    public var trip: TripID?
    /// What is wrong: `business trip without a purpose`.
    public var problem: String
    /// Who asks for it and where that is written.
    public var why: String
    /// What would fix it, as a command where one does.
    public var fix: String

    public init(rule: Rule, trip: TripID?, problem: String, why: String, fix: String) {
        self.rule = rule
        self.trip = trip
        self.problem = problem
        self.why = why
        self.fix = fix
    }
}
