import TestSupport

/// What a faulty receiver sends besides (or instead of) its good epochs, drawn from a seeded generator: garbage of
/// five kinds, sentences cut in the middle, and the epochs of a receiver that has no fix.
struct ReceiverNoise {
    /// A kind of garbage.
    enum Garbage: String, CaseIterable, Codable, Sendable {
        /// Uniformly random bytes, no line end (a wrong baud rate, line noise).
        case randomBytes = "random-bytes"
        /// A `$` line of 300–600 printable characters, over the framer's 256.
        case overlongLine = "overlong-line"
        /// A copy of one of the epoch's sentences with one character changed and the old checksum.
        case badChecksum = "bad-checksum"
        /// A copy of one of the epoch's sentences with a NUL byte in the middle.
        case binaryInSentence = "binary-in-sentence"
        /// A well-formed UBX frame (NAV-PVT's class, id and length, random payload, right checksum).
        case ubxFrame = "ubx-frame"

        /// Whether trackd must count this piece as exactly one dropped sentence (`input_problems`); random bytes
        /// may count as none or several, a UBX frame is skipped silently.
        var isOneProblem: Bool {
            switch self {
            case .overlongLine, .badChecksum, .binaryInSentence: true
            case .randomBytes, .ubxFrame: false
            }
        }
    }

    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// A seeded draw in [0, 1).
    mutating func uniform() -> Double {
        Double(random.next() >> 11) / Double(UInt64(1) << 53)
    }

    /// A seeded draw in `range`.
    mutating func integer(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(random.next() % UInt64(range.count))
    }

    /// A seeded draw in `range`, seconds.
    mutating func seconds(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * uniform()
    }

    /// A kind of garbage and its bytes; `epoch` (a good epoch's text) gives the sentences to damage.
    mutating func garbage(around epoch: Substring) -> (kind: Garbage, bytes: [UInt8]) {
        let kind = Garbage.allCases[integer(in: 0...(Garbage.allCases.count - 1))]
        switch kind {
        case .randomBytes:
            return (kind, (0..<integer(in: 16...400)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case .overlongLine:
            let body = (0..<integer(in: 300...600)).map { _ in UInt8(0x41 + random.next() % 26) }
            return (kind, Array("$GPTXT,".utf8) + body + [0x0D, 0x0A])
        case .badChecksum:
            var sentence = pickSentence(epoch)
            // A digit or letter of the body (after `$` and the talker, before `*`) becomes another one.
            let star = sentence.firstIndex(of: UInt8(ascii: "*")) ?? sentence.count
            let index = integer(in: 6...max(6, star - 1))
            sentence[index] = sentence[index] == UInt8(ascii: "7") ? UInt8(ascii: "3") : UInt8(ascii: "7")
            return (kind, sentence + [0x0D, 0x0A])
        case .binaryInSentence:
            var sentence = pickSentence(epoch)
            sentence.insert(0x00, at: integer(in: 3...(sentence.count - 3)))
            return (kind, sentence + [0x0D, 0x0A])
        case .ubxFrame:
            var frame: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 92, 0]
            frame += (0..<92).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            var a: UInt8 = 0, b: UInt8 = 0
            for byte in frame[2...] {
                a &+= byte
                b &+= a
            }
            return (kind, frame + [a, b])
        }
    }

    /// The first part of `epoch`, cut inside one of its sentences before the checksum: at least `$` and two more
    /// characters, never a whole sentence, so that the framer must drop it when the next `$` comes.
    mutating func halfLine(of epoch: Substring) -> [UInt8] {
        let bytes = Array(epoch.utf8)
        let starts = bytes.indices.filter { bytes[$0] == UInt8(ascii: "$") }
        let start = starts[integer(in: 0...(starts.count - 1))]
        let star = bytes[start...].firstIndex(of: UInt8(ascii: "*")) ?? bytes.count
        return Array(bytes[..<integer(in: (start + 3)...(star - 1))])
    }

    /// The epoch a receiver without a fix sends at the time of `epoch` (its RTC runs on): RMC status `V`, GGA
    /// quality 0, empty VTG, GSA mode 1; no position, speed or course anywhere.
    static func noFixEpoch(like epoch: Substring) -> String {
        let rmc = epoch.prefix { !$0.isNewline }.split(separator: ",", omittingEmptySubsequences: false)
        let time = rmc.count > 9 ? String(rmc[1]) : ""
        let date = rmc.count > 9 ? String(rmc[9]) : ""
        return [
            "GNRMC,\(time),V,,,,,,,\(date),,,N,V",
            "GNVTG,,T,,M,,N,,K,N",
            "GNGGA,\(time),,,,,0,00,99.99,,M,,M,,",
            "GNGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99,1",
        ].map(sentence).joined()
    }

    /// `$BODY*CS\r\n`.
    static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        let hex = String(checksum, radix: 16, uppercase: true)
        return "$\(body)*\(hex.count == 1 ? "0" + hex : hex)\r\n"
    }

    /// One of the epoch's sentences, without its line end.
    private mutating func pickSentence(_ epoch: Substring) -> [UInt8] {
        // By `isNewline`: "\r\n" is one Character, equal to neither "\r" nor "\n".
        let lines = epoch.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("$") }
        return Array(lines[integer(in: 0...(lines.count - 1))].utf8)
    }
}
