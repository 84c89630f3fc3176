/// Turns framed sentences into fixes: checks and decodes each sentence, counts what it passes over or rejects,
/// and assembles epochs.
///
/// Use it directly when the sentences are framed elsewhere (paced playback); `NMEAReader` puts an `NMEAFramer`
/// in front of it for raw bytes.
public struct NMEADecoder: Sendable {
    /// What the decoder hands back.
    public enum Event {
        /// A completed epoch.
        case fix(Fix)
        /// Something dropped, and why.
        case problem(NMEADiagnostic)
    }

    public private(set) var statistics = NMEAStatistics()
    private var assembler: EpochAssembler
    /// Sentences read so far with a verified checksum.
    private var checksummed = 0

    public init(configuration: EpochAssembler.Configuration = EpochAssembler.Configuration()) {
        assembler = EpochAssembler(configuration: configuration)
    }

    /// See `EpochAssembler.setDateHint`.
    public mutating func setDateHint(_ time: UTCTime?) {
        assembler.setDateHint(time)
    }

    /// Reads one framed sentence (from `$` to the last checksum digit).
    public mutating func decode(sentence: UnsafeBufferPointer<UInt8>, at position: NMEASourcePosition,
                                _ handle: (Event) -> Void) {
        switch NMEASentence.parse(sentence) {
        case .sentence(let decoded):
            if decoded.checksum == .missing {
                // Receivers either send checksums or do not. In a stream that does, a sentence without one has
                // most likely lost its end (a cut-off latitude is a jump of tens of metres): it is rejected.
                if usesChecksums {
                    reject(.checksumMissing, sentence, position, handle)
                    return
                }
                statistics.missingChecksums += 1
            } else {
                checksummed += 1
            }
            statistics.count(decoded.type)
            var counts = NMEAStatistics.FixCounts()
            assembler.add(decoded) { fix in
                counts.count(fix)
                handle(.fix(fix))
            }
            statistics.add(counts)
        case .ignored(let reason):
            switch reason {
            case .proprietary: statistics.proprietarySentences += 1
            case .unsupported: statistics.unsupportedSentences += 1
            case .unknownAddress: statistics.unknownAddresses += 1
            }
        case .rejected(let error, _):
            reject(error, sentence, position, handle)
        }
    }

    /// Whether this stream carries checksums: three or more verified, and ten times as many as accepted without.
    private var usesChecksums: Bool {
        checksummed >= 3 && checksummed >= 10 * statistics.missingChecksums
    }

    private mutating func reject(_ error: NMEASentenceError, _ sentence: UnsafeBufferPointer<UInt8>,
                                 _ position: NMEASourcePosition, _ handle: (Event) -> Void) {
        if case .badChecksum = error {
            statistics.badChecksums += 1
        } else {
            statistics.malformedSentences += 1
        }
        let excerpt = String(decoding: sentence.prefix(48), as: UTF8.self)
        handle(.problem(NMEADiagnostic(problem: .sentence(error), position: position, excerpt: excerpt)))
    }

    /// Reports something the framer dropped.
    public mutating func framingProblem(_ problem: NMEAFramingProblem, at position: NMEASourcePosition,
                                        excerpt: String, _ handle: (Event) -> Void) {
        handle(.problem(NMEADiagnostic(problem: .framing(problem), position: position, excerpt: excerpt)))
    }

    /// Emits the open epoch now (end of input, the source went quiet, or it is about to stop).
    public mutating func flush(_ handle: (Event) -> Void) {
        var counts = NMEAStatistics.FixCounts()
        assembler.flush { fix in
            counts.count(fix)
            handle(.fix(fix))
        }
        statistics.add(counts)
    }

    /// Takes the framer's counters into the statistics.
    mutating func record(framing: NMEAFramingStatistics) {
        statistics.framing = framing
    }
}
