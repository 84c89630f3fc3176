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

    /// `metres` in whole tenths of the unit, rounded half away from zero.
    public func tenths(_ metres: Double) -> Int64 {
        guard metres.isFinite, abs(metres) < 1e15 else { return 0 }
        return Int64((metres * 10 / self.metres).rounded())
    }

    /// Tenths of a kilometre (a report's figure) in tenths of this unit: the same figure in kilometres, or the
    /// miles it is, rounded.
    public func tenths(fromKilometreTenths kilometreTenths: Int64) -> Int64 {
        self == .kilometres ? kilometreTenths : tenths(Double(kilometreTenths) * 100)
    }

    /// `12.3` from 123 tenths.
    public static func text(tenths: Int64) -> String {
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths.magnitude
        return "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}
