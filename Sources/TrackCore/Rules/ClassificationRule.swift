/// A rule that classifies a GPS trip when it closes unclassified (docs/rules.md): when it holds, what the trip
/// becomes. The trip says which rule did it and stays to be confirmed by the driver.
public struct ClassificationRule: Sendable, Hashable, Identifiable {
    public var id: RuleID
    public var condition: RuleCondition
    /// What the trip becomes: `business` or `private` (a regular-trip rule takes the regular trip's).
    public var kind: TripKind
    /// A private trip between home and the regular place of work.
    public var commute: Bool
    /// Filled in where the trip has none; a business rule needs a purpose.
    public var purpose: String?
    public var customer: String?
    public var state: RuleState
    /// The condition as a person reads it, with the places' names as they are now (`Office ↔ Example Ltd`): set by
    /// the log when it hands a rule out, never stored.
    public var text: String?

    public init(id: RuleID, condition: RuleCondition, kind: TripKind, commute: Bool = false, purpose: String? = nil,
                customer: String? = nil, state: RuleState = .active, text: String? = nil) {
        self.text = text
        self.id = id
        self.condition = condition
        self.kind = kind
        self.commute = commute
        self.purpose = purpose
        self.customer = customer
        self.state = state
    }

    /// Why the rule cannot be kept as it is, or `nil` when it can.
    public var problem: String? {
        switch condition {
        case .places(let from, let to, let eitherWay):
            if from == to && eitherWay { return "a trip from a place back to it needs no 'either way'" }
        case .hours(let hours, _):
            if let problem = hours.problem { return problem }
        case .regular(let name):
            if name.trimmed.isEmpty { return "a regular-trip rule needs the regular trip's name" }
            return nil
        }
        switch kind {
        case .unclassified: return "a rule classifies: give business or private"
        case .business:
            if commute { return "a commute is a private trip: a business rule cannot make one" }
            if purpose?.trimmed.isEmpty ?? true { return "a business rule needs a purpose (a business trip needs one)" }
        case .private: break
        }
        return nil
    }

    /// What a person reads for the rule's condition, with the places' names: `Office ↔ Example Ltd`,
    /// `Home → Office`, `Mon–Fri 08:00–18:00`, `outside Mon–Fri 08:00–18:00`, `regular trip 'commute'`.
    public func text(placeName: (PlaceID) -> String?) -> String {
        switch condition {
        case .places(let from, let to, let eitherWay):
            let first = placeName(from) ?? "place \(from)", second = placeName(to) ?? "place \(to)"
            return "\(first) \(eitherWay ? "↔" : "→") \(second)"
        case .hours(let hours, let outside):
            return (outside ? "outside " : "") + hours.text
        case .regular(let name):
            return "regular trip '\(name)'"
        }
    }

    /// What the rule makes of a trip, as a person reads it: `business (Delivery, Example Ltd)`, `private, commute`.
    public var outcomeText: String {
        if case .regular = condition { return "as the regular trip" }
        var details = [purpose, customer].compactMap { $0.flatMap { $0.trimmed.isEmpty ? nil : $0 } }
        if commute { details.insert("commute", at: 0) }
        return details.isEmpty ? kind.rawValue : "\(kind.rawValue) (\(details.joined(separator: ", ")))"
    }
}
