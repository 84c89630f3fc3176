/// Turns what a receiver reports into a horizontal error estimate in metres at about 95 % confidence.
///
/// - From GST (measured): `2 × √(σlat² + σlon²)` — twice the receiver's 1-sigma horizontal RMS (2DRMS,
///   95–98 % for the usual error ellipses).
/// - From HDOP (a **model**, not a measurement): `2 × HDOP × UERE`, where UERE is the user-equivalent range error
///   assumed for the fix quality: 4 m autonomous, 2 m differential/SBAS, 0.5 m RTK float, 0.05 m RTK fixed,
///   8 m dead reckoning. 4 m is the usual single-frequency figure for today's multi-GNSS receivers; gpsd
///   assumes a more pessimistic 19 m × HDOP.
public struct HorizontalErrorModel: Sendable, Hashable {
    /// Assumed range error for an autonomous fix, metres (1 sigma).
    public var autonomousUERE: Double = 4.0
    /// Assumed range error for a differential or SBAS fix.
    public var differentialUERE: Double = 2.0
    /// Assumed range error for an RTK float fix.
    public var rtkFloatUERE: Double = 0.5
    /// Assumed range error for an RTK fixed fix.
    public var rtkFixedUERE: Double = 0.05
    /// Assumed range error for a dead-reckoning fix.
    public var deadReckoningUERE: Double = 8.0

    public init() {}

    /// The assumed range error for a fix quality.
    public func uere(for quality: FixQuality) -> Double {
        switch quality {
        case .dgps, .pps: differentialUERE
        case .rtkFloat: rtkFloatUERE
        case .rtkFixed: rtkFixedUERE
        case .deadReckoning, .gnssDeadReckoning: deadReckoningUERE
        default: autonomousUERE
        }
    }

    /// 95 % horizontal error from GST's per-axis 1-sigma errors.
    public static func fromStandardDeviations(latitude: Double, longitude: Double) -> Double {
        2 * (latitude * latitude + longitude * longitude).squareRoot()
    }

    /// 95 % horizontal error modelled from HDOP.
    public func fromHDOP(_ hdop: Double, quality: FixQuality) -> Double {
        2 * hdop * uere(for: quality)
    }
}
