/// The unit a person reads distances in. The log keeps metres; this is only how they are shown and counted for an
/// allowance, in tenths of the unit (as reports print them).
public enum DistanceUnit: String, Sendable, Hashable, Codable, CaseIterable {
    case kilometres = "km"
    case miles = "mi"

    /// Metres in one unit (the international mile: 1609.344 m, exactly).
    public var metres: Double {
        switch self {
        case .kilometres: 1000
        case .miles: 1609.344
        }
    }

    /// The unit as a person names it: `km`, `kilometres`, `mi`, `miles` (any case); `nil` for anything else.
    public init?(name: String) {
        switch name.lowercased() {
        case "km", "kilometres", "kilometers": self = .kilometres
        case "mi", "miles": self = .miles
        default: return nil
        }
    }

    /// `metres` in whole tenths of the unit (100 m, or a tenth of a mile), rounded half away from zero.
    public func tenths(_ metres: Double) -> Int64 {
        guard metres.isFinite, abs(metres) < 1e15 else { return 0 }
        return Int64((metres / (self.metres / 10)).rounded())
    }

    /// The unit's speed as people write it: `km/h` or `mph`.
    public var speedName: String {
        switch self {
        case .kilometres: "km/h"
        case .miles: "mph"
        }
    }

    /// A speed in metres per second as so many of the unit an hour.
    public func perHour(metresPerSecond speed: Double) -> Double {
        speed * 3600 / metres
    }

    /// A figure a person typed in the unit (a distance, a dashboard's reading) in metres.
    public func metres(from value: Double) -> Double {
        value * metres
    }

    /// `12.3 mi`: `metres` in tenths of the unit with its name, as reports print a distance or a reading.
    public func text(metres: Double) -> String {
        Self.text(tenths: tenths(metres)) + " " + rawValue
    }

    /// `12.3` from 123 tenths.
    public static func text(tenths: Int64) -> String {
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths.magnitude
        return "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}
