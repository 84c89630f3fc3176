extension FixQuality {
    /// The quality a GGA quality digit stands for; `nil` for 0 (no fix).
    public init?(ggaQuality: Int) {
        switch ggaQuality {
        case 1: self = .gps
        case 2: self = .dgps
        case 3: self = .pps
        case 4: self = .rtkFixed
        case 5: self = .rtkFloat
        case 6: self = .deadReckoning
        case 7: self = .manual
        case 8: self = .simulated
        default: return nil
        }
    }

    /// The quality an RMC, GLL, VTG or GNS mode character stands for; `nil` for `N` and unknown characters.
    public init?(modeIndicator: UInt8) {
        switch modeIndicator {
        case UInt8(ascii: "A"): self = .gps
        case UInt8(ascii: "D"): self = .dgps
        case UInt8(ascii: "P"): self = .pps
        case UInt8(ascii: "R"): self = .rtkFixed
        case UInt8(ascii: "F"): self = .rtkFloat
        case UInt8(ascii: "E"): self = .deadReckoning
        case UInt8(ascii: "M"): self = .manual
        case UInt8(ascii: "S"): self = .simulated
        default: return nil
        }
    }

    /// Order of preference when constellations disagree: measured beats estimated, better beats worse.
    var rank: Int {
        switch self {
        case .rtkFixed: 9
        case .rtkFloat: 8
        case .pps: 7
        case .dgps: 6
        case .gps: 5
        case .gnssDeadReckoning: 4
        case .deadReckoning: 3
        case .manual: 2
        case .simulated: 1
        case .unknown: 0
        }
    }
}
