/// The three-letter formatter of a sentence (`GGA`, `RMC`, …), without its talker.
public struct NMEASentenceType: Sendable, Hashable, CustomStringConvertible {
    /// The three ASCII letters packed big-endian into the low 24 bits.
    public let code: UInt32

    public init(_ text: StaticString) {
        precondition(text.utf8CodeUnitCount == 3)
        let bytes = UnsafeBufferPointer(start: text.utf8Start, count: 3)
        code = NMEASentenceType.pack(bytes[0], bytes[1], bytes[2])
    }

    init(packing a: UInt8, _ b: UInt8, _ c: UInt8) {
        code = NMEASentenceType.pack(a, b, c)
    }

    private static func pack(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 {
        UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
    }

    public var description: String {
        String(decoding: [UInt8(truncatingIfNeeded: code >> 16), UInt8(truncatingIfNeeded: code >> 8),
                          UInt8(truncatingIfNeeded: code)], as: UTF8.self)
    }

    /// Whether trackd decodes sentences of this type.
    public var isUsed: Bool {
        switch self {
        case .gga, .rmc, .gns, .gsa, .gst, .vtg, .gll, .zda, .gsv: true
        default: false
        }
    }

    public static let gga = NMEASentenceType("GGA")
    public static let rmc = NMEASentenceType("RMC")
    public static let gns = NMEASentenceType("GNS")
    public static let gsa = NMEASentenceType("GSA")
    public static let gst = NMEASentenceType("GST")
    public static let vtg = NMEASentenceType("VTG")
    public static let gll = NMEASentenceType("GLL")
    public static let zda = NMEASentenceType("ZDA")
    public static let gsv = NMEASentenceType("GSV")
}
