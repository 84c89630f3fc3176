/// The log's rules, and what they make of a trip that closes unclassified (docs/rules.md). Pure: the log hands in
/// the rules, the regular trips and the places' names, and the trip's facts.
public struct RuleBook: Sendable {
    public var rules: [ClassificationRule]
    public var regularTrips: [RegularTrip]
    public var placeNames: [PlaceID: String]

    public init(rules: [ClassificationRule], regularTrips: [RegularTrip], placeNames: [PlaceID: String]) {
        self.rules = rules
        self.regularTrips = regularTrips
        self.placeNames = placeNames
    }

    /// The first active rule that holds for the trip, in order: place pairs one way, place pairs either way, regular
    /// trips, hours; among rules of one kind the lower number. `nil` when none does (the driver classifies it).
    public func match(_ facts: TripFacts) -> RuleMatch? {
        let ordered = rules.filter { $0.state == .active }
            .sorted { ($0.condition.precedence, $0.id) < ($1.condition.precedence, $1.id) }
        for rule in ordered {
            if let match = match(rule, facts) { return match }
        }
        return nil
    }

    /// The rule's text with the places' names as the book knows them.
    public func text(of rule: ClassificationRule) -> String {
        rule.text { placeNames[$0] }
    }

    private func match(_ rule: ClassificationRule, _ facts: TripFacts) -> RuleMatch? {
        guard rule.problem == nil else { return nil }
        let text = text(of: rule)
        switch rule.condition {
        case .places(let from, let to, let eitherWay):
            guard let start = facts.startPlace?.id, let end = facts.endPlace?.id,
                  (start, end) == (from, to) || (eitherWay && (start, end) == (to, from)) else { return nil }
            return RuleMatch(rule: rule, kind: rule.kind, commute: rule.commute, purpose: rule.purpose,
                             customer: rule.customer, destination: nil, text: text)
        case .hours(let hours, let outside):
            guard let start = facts.localStart, let end = facts.localEnd, start <= end else { return nil }
            let holds = outside ? !hours.touches(from: start, to: end) : hours.holds(from: start, to: end)
            guard holds else { return nil }
            return RuleMatch(rule: rule, kind: rule.kind, commute: rule.commute, purpose: rule.purpose,
                             customer: rule.customer, destination: nil, text: text)
        case .regular(let name):
            guard let regular = regularTrips.first(where: { Place.key($0.name) == Place.key(name) }),
                  let from = regular.from.map(Place.key), let to = regular.to.map(Place.key),
                  let start = facts.startPlace.map({ Place.key($0.name) }), let end = facts.endPlace.map({ Place.key($0.name) }),
                  (start, end) == (from, to) || (start, end) == (to, from),
                  regular.kind != .unclassified,
                  regular.kind != .business || !(regular.purpose?.trimmed.isEmpty ?? true)
            else { return nil }
            return RuleMatch(rule: rule, kind: regular.kind, commute: false, purpose: regular.purpose,
                             customer: regular.customer, destination: regular.destination, text: text)
        }
    }

}
