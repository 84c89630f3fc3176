/// The two-letter talker of a sentence: which system produced it (`GP` GPS, `GN` combined GNSS, …).
public struct NMEATalker: Sendable, Hashable, CustomStringConvertible {
    /// The two ASCII letters packed big-endian.
    public let code: UInt16

    public init(_ text: StaticString) {
        precondition(text.utf8CodeUnitCount == 2)
        code = UInt16(text.utf8Start[0]) << 8 | UInt16(text.utf8Start[1])
    }

    init(packing a: UInt8, _ b: UInt8) {
        code = UInt16(a) << 8 | UInt16(b)
    }

    public var description: String {
        String(decoding: [UInt8(truncatingIfNeeded: code >> 8), UInt8(truncatingIfNeeded: code)], as: UTF8.self)
    }

    /// Whether this is one of the satellite-navigation talkers trackd knows by name.
    public var isKnownGNSS: Bool { NMEATalker.gnss.contains(self) }

    public static let gps = NMEATalker("GP")
    public static let combined = NMEATalker("GN")
    public static let glonass = NMEATalker("GL")
    public static let galileo = NMEATalker("GA")
    public static let beidou = NMEATalker("GB")
    public static let beidouLegacy = NMEATalker("BD")
    public static let qzss = NMEATalker("GQ")
    public static let navic = NMEATalker("GI")

    /// GP, GN, GL, GA, GB, BD, GQ, GI.
    public static let gnss: Set<NMEATalker> = [.gps, .combined, .glonass, .galileo, .beidou, .beidouLegacy, .qzss, .navic]
}
