/// The rule that classified a trip, as the trip keeps it: its number while it exists and its text as it was then.
public struct TripRule: Sendable, Hashable, Codable {
    public var id: RuleID?
    /// `Office ↔ Example Ltd`.
    public var text: String

    public init(id: RuleID?, text: String) {
        self.id = id
        self.text = text
    }
}
