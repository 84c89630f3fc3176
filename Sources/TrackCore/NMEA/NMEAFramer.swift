/// Cuts a raw byte stream into NMEA 0183 sentences.
///
/// It copes with what real receivers and capture tools produce: CRLF, LF or CR CR LF line ends, blank lines,
/// comment lines and banners (skipped), over-long lines (dropped), a sentence cut short at the end of the
/// input, two sentences glued together without a line break, and u-blox UBX binary frames interleaved with the
/// text (recognised by their sync bytes, length and checksum, and skipped whole). Any other binary data is
/// skipped byte by byte until the next `$`.
///
/// The framer does not look at the contents of a sentence: checksums and fields are `NMEASentence`'s job.
public struct NMEAFramer: Sendable {
    /// Limits of the framer.
    public struct Configuration: Sendable, Hashable {
        /// Longest sentence accepted, `$` to the last checksum digit. NMEA allows 82 characters; real receivers
        /// (Septentrio, u-blox PUBX, NMEA 4.11 GSV) go beyond, so the default leaves room.
        public var maxSentenceLength: Int = 256
        /// Longest UBX payload skipped as one frame; a longer length field is not taken for a frame.
        public var maxBinaryPayload: Int = 4096

        public init() {}
    }

    /// Something the framer found in the stream.
    public enum Event {
        /// A complete sentence from `$` (or `!`) up to, not including, the line end. Valid only during the call.
        case sentence(UnsafeBufferPointer<UInt8>, NMEASourcePosition)
        /// Something sentence-like that had to be dropped, and why.
        case dropped(NMEAFramingProblem, NMEASourcePosition, excerpt: String)
    }

    private enum State: Sendable {
        case hunting
        case sentence
        case discardingLine
        case binaryFrame
    }

    public let configuration: Configuration
    /// What the framer has seen so far.
    public private(set) var statistics = NMEAFramingStatistics()

    private var state = State.hunting
    private var sentence: [UInt8] = []
    private var frame: [UInt8] = []
    private var sentenceStart = NMEASourcePosition(line: 1, byteOffset: 0)
    private var line = 1
    private var offset = 0
    private var rescan: [UInt8]?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        sentence.reserveCapacity(configuration.maxSentenceLength + 1)
    }

    /// Feeds the next chunk of the stream; `handle` is called for every sentence and every dropped piece.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (Event) -> Void) {
        bytes.withMemoryRebound(to: UInt8.self) { feed($0, handle) }
    }

    /// Feeds the next chunk of the stream; `handle` is called for every sentence and every dropped piece.
    public mutating func feed(_ bytes: some Sequence<UInt8>, _ handle: (Event) -> Void) {
        var handled = false
        bytes.withContiguousStorageIfAvailable { buffer in
            feed(buffer, handle)
            handled = true
        }
        if !handled {
            let copy = Array(bytes)
            copy.withUnsafeBufferPointer { feed($0, handle) }
        }
    }

    /// Ends the stream: a sentence still open is emitted if its checksum shows it complete, otherwise dropped.
    public mutating func finish(_ handle: (Event) -> Void) {
        switch state {
        case .sentence:
            if sentenceLooksComplete() {
                emitSentence(handle)
            } else if sentence.count > 1 {
                drop(.truncatedAtEnd, handle)
            }
        case .binaryFrame:
            // The input ended inside a would-be frame: scan its bytes as text, then finish again.
            _ = rejectFrame(consumedUpTo: 0)
            if let pending = rescan {
                rescan = nil
                pending.withUnsafeBufferPointer { drive($0, handle) }
            }
            finish(handle)
            return
        case .hunting, .discardingLine:
            break
        }
        state = .hunting
        sentence.removeAll(keepingCapacity: true)
    }

    // MARK: - The byte loop

    private mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ handle: (Event) -> Void) {
        statistics.bytes += bytes.count
        drive(bytes, handle)
    }

    private mutating func drive(_ bytes: UnsafeBufferPointer<UInt8>, _ handle: (Event) -> Void) {
        var index = 0
        while index < bytes.count {
            index = step(bytes, from: index, handle)
            // Bytes of a would-be binary frame that failed its checks are scanned again, before the rest of
            // the input. Rescanning can uncover another failed frame; its bytes go first again.
            while var pending = rescan {
                rescan = nil
                var position = 0
                while position < pending.count {
                    position = pending.withUnsafeBufferPointer { step($0, from: position, handle) }
                    if let nested = rescan {
                        rescan = nil
                        pending = nested + pending[position...]
                        position = 0
                    }
                }
            }
        }
    }

    /// Runs the state machine from `start` until the input ends or a failed binary frame must be rescanned.
    private mutating func step(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ handle: (Event) -> Void) -> Int {
        var index = start
        let end = bytes.count
        while index < end && rescan == nil {
            switch state {
            case .hunting:
                // Skip to the next `$`, `!` or UBX sync byte, counting lines and junk on the way.
                while index < end {
                    let byte = bytes[index]
                    if byte == .dollar || byte == .bang {
                        startSentence(at: index, byte: byte)
                        index += 1
                        break
                    } else if byte == 0xB5 {
                        state = .binaryFrame
                        frame.removeAll(keepingCapacity: true)
                        frame.append(byte)
                        offset += 1
                        index += 1
                        break
                    } else {
                        countSkipped(byte)
                        index += 1
                    }
                }
            case .sentence:
                // Take the longest run of printable bytes at once.
                var runEnd = index
                while runEnd < end {
                    let byte = bytes[runEnd]
                    guard byte >= 0x20, byte <= 0x7E, byte != .dollar else { break }
                    runEnd += 1
                }
                if runEnd > index {
                    let room = configuration.maxSentenceLength - sentence.count
                    if runEnd - index > room {
                        sentence.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + room)]))
                        offset += runEnd - index
                        index = runEnd
                        drop(.overlong, handle)
                        state = .discardingLine
                        continue
                    }
                    sentence.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<runEnd]))
                    offset += runEnd - index
                    index = runEnd
                }
                guard index < end else { break }
                let byte = bytes[index]
                if byte == .lineFeed || byte == .carriageReturn {
                    emitSentence(handle)
                    state = .hunting
                    countSkipped(byte)
                    index += 1
                } else if byte == .dollar {
                    // A new sentence begins: the open one is complete only if it already has its checksum.
                    if sentenceLooksComplete() {
                        statistics.missingLineBreaks += 1
                        emitSentence(handle)
                    } else if sentence.count > 1 {
                        drop(.interrupted, handle)
                    }
                    startSentence(at: index, byte: byte)
                    index += 1
                } else {
                    // Binary data inside a sentence: the sentence is lost, the byte is looked at again.
                    drop(.binaryData, handle)
                    state = .hunting
                }
            case .discardingLine:
                // The rest of an overlong line: part of the line already counted as dropped, not junk (as when the
                // whole line arrives in one read, so the counters do not depend on where the reads split it).
                while index < end {
                    let byte = bytes[index]
                    if byte == .lineFeed || byte == .carriageReturn || byte < 0x20 || byte > 0x7E {
                        state = .hunting
                        break
                    } else if byte == .dollar {
                        startSentence(at: index, byte: byte)
                        index += 1
                        break
                    }
                    offset += 1
                    index += 1
                }
            case .binaryFrame:
                index = continueBinaryFrame(bytes, from: index)
            }
        }
        return index
    }

    // MARK: - Sentences

    private mutating func startSentence(at index: Int, byte: UInt8) {
        sentenceStart = NMEASourcePosition(line: line, byteOffset: offset)
        sentence.removeAll(keepingCapacity: true)
        sentence.append(byte)
        offset += 1
        state = .sentence
    }

    /// Whether the open sentence ends in `*hh`, so that it can stand without its line end.
    private func sentenceLooksComplete() -> Bool {
        let count = sentence.count
        guard count >= 4, sentence[count - 3] == .asterisk else { return false }
        return sentence[count - 2].isHexDigit && sentence[count - 1].isHexDigit
    }

    private mutating func emitSentence(_ handle: (Event) -> Void) {
        if sentence.count > 1 {
            statistics.sentences += 1
            let position = sentenceStart
            sentence.withUnsafeBufferPointer { handle(.sentence($0, position)) }
        }
        sentence.removeAll(keepingCapacity: true)
    }

    private mutating func drop(_ problem: NMEAFramingProblem, _ handle: (Event) -> Void) {
        switch problem {
        case .overlong: statistics.overlongLines += 1
        case .interrupted, .binaryData: statistics.interruptedSentences += 1
        case .truncatedAtEnd: statistics.truncatedAtEnd += 1
        }
        let excerpt = String(decoding: sentence.prefix(48), as: UTF8.self)
        handle(.dropped(problem, sentenceStart, excerpt: excerpt))
        sentence.removeAll(keepingCapacity: true)
    }

    private mutating func countSkipped(_ byte: UInt8) {
        offset += 1
        if byte == .lineFeed {
            line += 1
        } else if byte != .carriageReturn && byte != .space && byte != .tab {
            statistics.junkBytes += 1
        }
    }

    // MARK: - UBX frames

    /// Collects a candidate UBX frame: `B5 62 class id len(2, LE) payload ck_a ck_b`.
    /// A frame whose sync, length or checksum is wrong was not a frame: its bytes are scanned again for text.
    private mutating func continueBinaryFrame(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            frame.append(byte)
            offset += 1
            index += 1
            if frame.count == 2 && byte != 0x62 {
                return rejectFrame(consumedUpTo: index)
            }
            if frame.count == 6 {
                let length = Int(frame[4]) | Int(frame[5]) << 8
                if length > configuration.maxBinaryPayload {
                    return rejectFrame(consumedUpTo: index)
                }
            }
            if frame.count >= 8 {
                let length = Int(frame[4]) | Int(frame[5]) << 8
                if frame.count == length + 8 {
                    if ubxChecksumMatches() {
                        statistics.binaryFrames += 1
                        for byte in frame where byte == .lineFeed { line += 1 }
                        frame.removeAll(keepingCapacity: true)
                        state = .hunting
                        return index
                    }
                    return rejectFrame(consumedUpTo: index)
                }
            }
        }
        return index
    }

    private func ubxChecksumMatches() -> Bool {
        var a: UInt8 = 0
        var b: UInt8 = 0
        for byte in frame[2..<(frame.count - 2)] {
            a &+= byte
            b &+= a
        }
        return a == frame[frame.count - 2] && b == frame[frame.count - 1]
    }

    /// Not a UBX frame after all: the sync byte is junk, the rest goes through the text scanner again.
    private mutating func rejectFrame(consumedUpTo index: Int) -> Int {
        offset -= frame.count - 1
        statistics.junkBytes += 1
        rescan = Array(frame.dropFirst())
        frame.removeAll(keepingCapacity: true)
        state = .hunting
        return index
    }
}

/// Where in the input a sentence began.
public struct NMEASourcePosition: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line number (line feeds seen before it, plus one).
    public var line: Int
    /// 0-based byte offset of its first byte.
    public var byteOffset: Int

    public init(line: Int, byteOffset: Int) {
        self.line = line
        self.byteOffset = byteOffset
    }

    public var description: String { "line \(line)" }
}

/// Why the framer dropped something that began like a sentence.
public enum NMEAFramingProblem: Sendable, Hashable, CustomStringConvertible {
    /// Longer than `maxSentenceLength` before its line end.
    case overlong
    /// A new `$` arrived before the open sentence had its checksum.
    case interrupted
    /// Binary bytes arrived inside the sentence.
    case binaryData
    /// The input ended in the middle of the sentence.
    case truncatedAtEnd

    public var description: String {
        switch self {
        case .overlong: "line too long for a sentence, dropped"
        case .interrupted: "sentence cut short by the next '$'"
        case .binaryData: "binary data inside a sentence"
        case .truncatedAtEnd: "sentence cut short at the end of the input"
        }
    }
}

/// Counters kept by `NMEAFramer`.
public struct NMEAFramingStatistics: Sendable, Hashable {
    /// Bytes fed.
    public var bytes = 0
    /// Sentences cut out of the stream.
    public var sentences = 0
    /// Bytes skipped between sentences that were neither line ends nor part of a binary frame.
    public var junkBytes = 0
    /// UBX binary frames recognised and skipped.
    public var binaryFrames = 0
    /// Lines dropped for being too long.
    public var overlongLines = 0
    /// Sentences broken off by a new `$` or by binary data.
    public var interruptedSentences = 0
    /// Sentences glued to the next one without a line break (still read).
    public var missingLineBreaks = 0
    /// A sentence left open at the end of the input.
    public var truncatedAtEnd = 0

    public init() {}
}

extension UInt8 {
    static let dollar = UInt8(ascii: "$")
    static let bang = UInt8(ascii: "!")
    static let asterisk = UInt8(ascii: "*")
    static let comma = UInt8(ascii: ",")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    var isHexDigit: Bool {
        (self >= 0x30 && self <= 0x39) || (self >= 0x41 && self <= 0x46) || (self >= 0x61 && self <= 0x66)
    }

    var hexValue: UInt8? {
        switch self {
        case 0x30...0x39: self - 0x30
        case 0x41...0x46: self - 0x41 + 10
        case 0x61...0x66: self - 0x61 + 10
        default: nil
        }
    }
}
