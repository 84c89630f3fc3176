/// Tells from the first bytes read at one baud rate whether a receiver speaks NMEA there.
///
/// A receiver read at the wrong speed yields bytes, but never a sentence whose checksum holds; one read at its own
/// speed sends a position report (RMC, GGA, …) every second, with or without a fix. Two sentences with a verified
/// checksum decide it (or four without checksums, for the rare receiver that sends none); the bytes seen and what
/// they held are kept for the verdict's wording.
public struct NMEAProbe: Sendable {
    /// What the bytes showed.
    public enum Verdict: Sendable, Hashable, CustomStringConvertible {
        /// Sentences that decode: a receiver talks at this speed.
        case nmea(sentences: Int)
        /// Bytes, but no sentence: the wrong speed, or something that is not a receiver.
        case garbage(bytes: Int)
        /// Nothing arrived.
        case silent

        public var description: String {
            switch self {
            case .nmea(let sentences): "NMEA (\(sentences) sentences)"
            case .garbage(let bytes): "\(bytes) bytes, no NMEA"
            case .silent: "silent"
            }
        }
    }

    /// Sentences with a verified checksum that decide for NMEA.
    public static let verifiedNeeded = 2
    /// Sentences without a checksum that decide for NMEA.
    public static let uncheckedNeeded = 4

    private var framer = NMEAFramer()
    /// Bytes fed so far.
    public private(set) var bytes = 0
    /// Sentences that decoded with a verified checksum.
    public private(set) var verified = 0
    /// Sentences that decoded without a checksum.
    public private(set) var unchecked = 0

    public init() {}

    /// Feeds the next bytes read from the port.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        bytes += chunk.count
        var verified = 0
        var unchecked = 0
        framer.feed(chunk) { event in
            guard case .sentence(let raw, _) = event, case .sentence(let sentence) = NMEASentence.parse(raw) else { return }
            if sentence.checksum == .verified { verified += 1 } else { unchecked += 1 }
        }
        self.verified += verified
        self.unchecked += unchecked
    }

    /// Feeds bytes (tests, recordings).
    public mutating func feed(_ chunk: [UInt8]) {
        chunk.withUnsafeBytes { feed($0) }
    }

    /// Whether enough has been seen to stop reading: a receiver talks at this speed.
    public var isConclusive: Bool {
        verified >= NMEAProbe.verifiedNeeded || unchecked >= NMEAProbe.uncheckedNeeded
    }

    /// The verdict on what was fed.
    public var verdict: Verdict {
        if isConclusive { return .nmea(sentences: verified + unchecked) }
        return bytes == 0 ? .silent : .garbage(bytes: bytes)
    }
}
