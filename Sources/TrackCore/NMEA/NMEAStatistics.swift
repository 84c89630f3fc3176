/// What an `NMEAReader` has read: the counters behind "nothing was lost silently".
public struct NMEAStatistics: Sendable, Hashable {
    /// Framing counters: bytes, junk, binary frames, dropped lines.
    public var framing = NMEAFramingStatistics()
    /// Sentences decoded and used, by formatter (GGA, RMC, GNS, GSA, GST, VTG, GLL, ZDA, GSV).
    public var sentencesByType: [NMEASentenceType: Int] {
        var result: [NMEASentenceType: Int] = [:]
        for (index, type) in NMEAStatistics.types.enumerated() where typeCounts[index] > 0 {
            result[type] = typeCounts[index]
        }
        return result
    }
    private var typeCounts = [Int](repeating: 0, count: NMEAStatistics.types.count)
    static let types: [NMEASentenceType] = [.gga, .rmc, .gns, .gsa, .gst, .vtg, .gll, .zda, .gsv]
    /// Used sentences that had no checksum (accepted, as gpsd does).
    public var missingChecksums = 0
    /// Sentences dropped because their checksum did not match.
    public var badChecksums = 0
    /// Sentences dropped because a field could not be read, the checksum was malformed, or it was missing in a
    /// stream that otherwise carries checksums.
    public var malformedSentences = 0
    /// Proprietary `$P…` sentences passed over.
    public var proprietarySentences = 0
    /// Standard sentences of a kind trackd does not use, passed over.
    public var unsupportedSentences = 0
    /// Lines starting with `$` whose address is not NMEA, passed over.
    public var unknownAddresses = 0
    /// Epochs emitted as fixes (with or without a position).
    public var epochs = 0
    /// Of those, epochs with a 2D or 3D position.
    public var positionFixes = 0

    public init() {}

    /// Sentences decoded and used, all formatters.
    public var sentencesUsed: Int { typeCounts.reduce(0, +) }

    mutating func count(_ type: NMEASentenceType) {
        if let index = NMEAStatistics.types.firstIndex(of: type) { typeCounts[index] += 1 }
    }

    /// Fixes counted while the assembler runs, added afterwards.
    struct FixCounts {
        var epochs = 0
        var positionFixes = 0

        mutating func count(_ fix: Fix) {
            epochs += 1
            if fix.mode.hasPosition { positionFixes += 1 }
        }
    }

    mutating func add(_ counts: FixCounts) {
        epochs += counts.epochs
        positionFixes += counts.positionFixes
    }

    /// Sentences dropped for damage: bad checksums, malformed fields, broken framing.
    public var rejectedSentences: Int {
        badChecksums + malformedSentences + framing.overlongLines + framing.interruptedSentences
            + framing.truncatedAtEnd
    }
}
