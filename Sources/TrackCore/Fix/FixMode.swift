/// The dimension of a fix, with gpsd's numbering (TPV `mode`).
public enum FixMode: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Nothing is known yet.
    case notSeen = 0
    /// The receiver has no position.
    case noFix = 1
    /// Latitude and longitude, altitude not solved.
    case twoD = 2
    /// Latitude, longitude and altitude.
    case threeD = 3

    /// Whether the fix carries a usable horizontal position.
    public var hasPosition: Bool { self >= .twoD }

    public static func < (lhs: FixMode, rhs: FixMode) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .notSeen: "unknown"
        case .noFix: "no fix"
        case .twoD: "2D"
        case .threeD: "3D"
        }
    }
}
