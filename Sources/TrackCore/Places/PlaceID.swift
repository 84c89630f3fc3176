/// A named place's number in the log (`trackctl place show 3`, the socket's `place`). A plain integer in JSON, SQL
/// and text.
public struct PlaceID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByIntegerLiteral {
    public var rawValue: Int64

    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    public init(integerLiteral value: Int64) {
        rawValue = value
    }

    public var description: String { String(rawValue) }

    public static func < (lhs: PlaceID, rhs: PlaceID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
