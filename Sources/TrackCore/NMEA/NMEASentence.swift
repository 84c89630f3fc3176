/// One checked, decoded NMEA 0183 sentence of a kind trackd uses.
public struct NMEASentence: Sendable, Hashable {
    /// What the sentence says.
    public enum Payload: Sendable, Hashable {
        case rmc(RMCSentence)
        case gga(GGASentence)
        case gns(GNSSentence)
        case gsa(GSASentence)
        case gst(GSTSentence)
        case vtg(VTGSentence)
        case gll(GLLSentence)
        case zda(ZDASentence)
        case gsv(GSVSentence)
    }

    /// Whether the sentence carried a `*hh` checksum.
    public enum Checksum: Sendable, Hashable {
        case verified
        /// No checksum at all: accepted, as gpsd does, but counted.
        case missing
    }

    public var talker: NMEATalker
    public var payload: Payload
    public var checksum: Checksum

    public var type: NMEASentenceType {
        switch payload {
        case .rmc: .rmc
        case .gga: .gga
        case .gns: .gns
        case .gsa: .gsa
        case .gst: .gst
        case .vtg: .vtg
        case .gll: .gll
        case .zda: .zda
        case .gsv: .gsv
        }
    }

    /// The UTC time of day the sentence is stamped with, nanoseconds since midnight.
    public var timeOfDay: Int64? {
        switch payload {
        case .rmc(let s): s.timeOfDay
        case .gga(let s): s.timeOfDay
        case .gns(let s): s.timeOfDay
        case .gst(let s): s.timeOfDay
        case .gll(let s): s.timeOfDay
        case .zda(let s): s.timeOfDay
        case .gsa, .vtg, .gsv: nil
        }
    }

    /// Whether the sentence reports a position (valid or not): RMC, GGA, GNS, GLL.
    public var isPositionReport: Bool {
        switch payload {
        case .rmc, .gga, .gns, .gll: true
        default: false
        }
    }
}

/// The result of reading one framed sentence.
public enum NMEAParseResult: Sendable, Hashable {
    /// A sentence trackd uses.
    case sentence(NMEASentence)
    /// Well-formed but not used: proprietary (`$P…`), another formatter, or not an NMEA address at all.
    case ignored(NMEAIgnoredReason)
    /// Damaged or malformed: dropped, with the reason.
    case rejected(NMEASentenceError, NMEASentenceType?)
}

/// Why a sentence was passed over without being an error.
public enum NMEAIgnoredReason: Sendable, Hashable {
    /// A manufacturer's sentence (`$PUBX`, `$PGRME`, …).
    case proprietary
    /// A standard formatter trackd does not use (`HDG`, `RMB`, `TXT`, …).
    case unsupported(NMEASentenceType)
    /// An address that is not `talker + formatter` (`$SkyTraq,…`, `$STI,…`).
    case unknownAddress
}

extension NMEASentence {
    /// Checks and decodes one sentence as the framer cut it: `$`, address, fields, optional `*hh`.
    public static func parse(_ raw: UnsafeBufferPointer<UInt8>) -> NMEAParseResult {
        // Trailing blanks are not part of the sentence.
        var end = raw.count
        while end > 0, raw[end - 1] == .space || raw[end - 1] == .tab { end -= 1 }
        guard end >= 2 else { return .rejected(.missingAddress, nil) }

        // Checksum: XOR of everything between the leading `$` and `*`.
        var checksum = Checksum.missing
        var bodyEnd = end
        if end >= 4, raw[end - 3] == .asterisk {
            guard let high = raw[end - 2].hexValue, let low = raw[end - 1].hexValue else {
                return .rejected(.malformedChecksum, nil)
            }
            bodyEnd = end - 3
            var computed: UInt8 = 0
            for index in 1..<bodyEnd { computed ^= raw[index] }
            let stated = high << 4 | low
            guard computed == stated else {
                return .rejected(.badChecksum(stated: stated, computed: computed), typeIfStandard(raw, bodyEnd))
            }
            checksum = .verified
        } else if let star = raw[0..<end].lastIndex(of: .asterisk), star >= end - 3 {
            return .rejected(.malformedChecksum, nil)
        }

        // Address: `GPGGA`, `PUBX`, …
        var addressEnd = 1
        while addressEnd < bodyEnd, raw[addressEnd] != .comma { addressEnd += 1 }
        let addressLength = addressEnd - 1
        guard addressLength > 0 else { return .rejected(.missingAddress, nil) }
        if raw[1] == UInt8(ascii: "P") { return .ignored(.proprietary) }
        guard addressLength == 5, (1...5).allSatisfy({ raw[$0].isUppercaseLetterOrDigit }) else {
            return .ignored(.unknownAddress)
        }
        let talker = NMEATalker(packing: raw[1], raw[2])
        let type = NMEASentenceType(packing: raw[3], raw[4], raw[5])
        guard type.isUsed else { return .ignored(.unsupported(type)) }

        // Field boundaries, then the typed decode.
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: bodyEnd + 2) { bounds in
            var count = 0
            bounds[0] = 1
            for index in 1..<bodyEnd where raw[index] == .comma {
                count += 1
                bounds[count] = Int32(index + 1)
            }
            count += 1
            bounds[count] = Int32(bodyEnd + 1)
            let fields = NMEAFieldReader(
                bytes: UnsafeBufferPointer(rebasing: raw[0..<bodyEnd]),
                bounds: UnsafeBufferPointer(bounds), count: count, type: type
            )
            do throws(NMEASentenceError) {
                let payload = try decode(type, fields)
                return .sentence(NMEASentence(talker: talker, payload: payload, checksum: checksum))
            } catch {
                return .rejected(error, type)
            }
        }
    }

    private static func decode(
        _ type: NMEASentenceType, _ fields: NMEAFieldReader
    ) throws(NMEASentenceError) -> Payload {
        switch type {
        case .rmc: .rmc(try RMCSentence.parse(fields))
        case .gga: .gga(try GGASentence.parse(fields))
        case .gns: .gns(try GNSSentence.parse(fields))
        case .gsa: .gsa(try GSASentence.parse(fields))
        case .gst: .gst(try GSTSentence.parse(fields))
        case .vtg: .vtg(try VTGSentence.parse(fields))
        case .gll: .gll(try GLLSentence.parse(fields))
        case .zda: .zda(try ZDASentence.parse(fields))
        default: .gsv(try GSVSentence.parse(fields))
        }
    }

    /// The formatter of a standard address, for naming a rejected sentence.
    private static func typeIfStandard(_ raw: UnsafeBufferPointer<UInt8>, _ end: Int) -> NMEASentenceType? {
        guard end >= 7, raw[1] != UInt8(ascii: "P"), raw[6] == .comma else { return nil }
        return NMEASentenceType(packing: raw[3], raw[4], raw[5])
    }
}

extension UInt8 {
    var isUppercaseLetterOrDigit: Bool {
        (self >= 0x41 && self <= 0x5A) || (self >= 0x30 && self <= 0x39)
    }
}
