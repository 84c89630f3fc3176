/// How the receiver obtained its position, with gpsd's `status` numbering where gpsd has one.
public enum FixQuality: Int, Sendable, Hashable, CustomStringConvertible {
    /// No fix, or the receiver did not say.
    case unknown = 0
    /// Autonomous GNSS (GGA quality 1, RMC mode `A`).
    case gps = 1
    /// Differential GNSS, including SBAS (GGA quality 2, RMC mode `D`).
    case dgps = 2
    /// RTK with fixed integers (GGA quality 4, RMC mode `R`).
    case rtkFixed = 3
    /// RTK with float ambiguities (GGA quality 5, RMC mode `F`).
    case rtkFloat = 4
    /// Dead reckoning: estimated, not measured (GGA quality 6, RMC mode `E`).
    case deadReckoning = 5
    /// GNSS combined with dead reckoning (gpsd's own status; from libgps only).
    case gnssDeadReckoning = 6
    /// Manual input or a surveyed position (GGA quality 7, RMC mode `M`).
    case manual = 7
    /// Simulated (GGA quality 8, RMC mode `S`).
    case simulated = 8
    /// Precise Positioning Service (GGA quality 3, RMC mode `P`).
    case pps = 9

    /// Whether the position was estimated rather than measured.
    public var isDeadReckoning: Bool { self == .deadReckoning }

    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .gps: "GPS"
        case .dgps: "DGPS"
        case .rtkFixed: "RTK fixed"
        case .rtkFloat: "RTK float"
        case .deadReckoning: "dead reckoning"
        case .gnssDeadReckoning: "GNSS + dead reckoning"
        case .manual: "manual"
        case .simulated: "simulated"
        case .pps: "PPS"
        }
    }
}
