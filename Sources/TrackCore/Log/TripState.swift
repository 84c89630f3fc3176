/// Whether an entry of the mileage log is still being recorded, final, or withdrawn.
public enum TripState: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Being recorded now (or cut off by a power loss and not yet recovered).
    case open
    /// Final.
    case closed
    /// Withdrawn with a reason; kept, shown, and left out of the totals.
    case deleted

    public var description: String { rawValue }
}
