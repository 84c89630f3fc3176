/// A trip's number, one type wherever the trip goes: the log's row id, the engine's running trip, the socket's
/// `trip` and `number`, the journal's `TRIP_ID`, `trackctl show N`. Written as a plain integer in JSON, SQL and text.
public struct TripID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
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

    public static func < (lhs: TripID, rhs: TripID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
