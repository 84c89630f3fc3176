/// Cuts a raw byte stream into NMEA 0183 sentences.
///
/// It copes with what real receivers and capture tools produce: CRLF, LF or CR CR LF line ends, blank lines,
/// comment lines and banners (skipped), over-long lines (dropped), a sentence cut short at the end of the
/// input, two sentences glued together without a line break, and u-blox UBX binary frames interleaved with the
/// text (recognised by their sync bytes, length and checksum, and skipped whole). Any other binary data is
/// skipped byte by byte until the next `$`.
///
/// The framer does not look at the contents of a sentence: checksums and fields are `NMEASentence`'s job. The text
/// is cut here; the binary frames are recognised in `NMEAFramer+UBX`.
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

    enum State: Sendable {
        case hunting
        case sentence
        case discardingLine
        case binaryFrame
    }

    public let configuration: Configuration
    /// What the framer has seen so far.
    public internal(set) var statistics = NMEAFramingStatistics()

    var state = State.hunting
    private var sentence: [UInt8] = []
    var frame: [UInt8] = []
    private var sentenceStart = NMEASourcePosition(line: 1, byteOffset: 0)
    var line = 1
    var offset = 0
    var rescan: [UInt8]?

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
}
