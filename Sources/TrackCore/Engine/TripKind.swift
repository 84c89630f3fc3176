/// What a trip was for, as the tax office asks.
public enum TripKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case business
    case `private`
    /// Not decided yet; to be classified later.
    case unclassified

    public var description: String { rawValue }
}
