/// What the log keeps of where a GPS trip went: its track and its start and end positions, or nothing of them.
public enum TripRoute: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The track and the positions are kept.
    case recorded
    /// A private trip recorded in privacy mode: no point and no position was ever stored.
    case withheld
    /// Kept once, erased since (a trip reclassified private, an erasure of routes); the chain keeps their digest.
    case erased

    /// Whether the trip has a route to show.
    public var isKept: Bool { self == .recorded }

    public var description: String { rawValue }
}
