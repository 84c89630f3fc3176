/// Reads NMEA 0183 from raw bytes to fixes: framing, checksums, decoding and epoch assembly in one place.
///
/// Pure: bytes go in, fixes and diagnostics come out through the handler; it does no I/O and reads no clock.
/// Live sources feed it what they read; `trackctl decode` feeds it a file.
public struct NMEAReader: Sendable {
    /// Everything the reader can be told.
    public struct Configuration: Sendable, Hashable {
        public var framing = NMEAFramer.Configuration()
        public var assembly = EpochAssembler.Configuration()

        public init() {}
    }

    public typealias Event = NMEADecoder.Event

    private var framer: NMEAFramer
    private var decoder: NMEADecoder

    public init(configuration: Configuration = Configuration()) {
        framer = NMEAFramer(configuration: configuration.framing)
        decoder = NMEADecoder(configuration: configuration.assembly)
    }

    /// What has been read so far.
    public var statistics: NMEAStatistics { decoder.statistics }

    /// Reads the next chunk of the stream.
    public mutating func read(_ bytes: UnsafeRawBufferPointer, _ handle: (Event) -> Void) {
        var decoder = takeDecoder()
        framer.feed(bytes) { event in NMEAReader.pass(event, to: &decoder, handle) }
        decoder.record(framing: framer.statistics)
        self.decoder = decoder
    }

    /// Reads the next chunk of the stream.
    public mutating func read(_ bytes: some Sequence<UInt8>, _ handle: (Event) -> Void) {
        var decoder = takeDecoder()
        framer.feed(bytes) { event in NMEAReader.pass(event, to: &decoder, handle) }
        decoder.record(framing: framer.statistics)
        self.decoder = decoder
    }

    /// Ends the stream: a last sentence without a line end is read if complete, and the open epoch is emitted.
    public mutating func finish(_ handle: (Event) -> Void) {
        var decoder = takeDecoder()
        framer.finish { event in NMEAReader.pass(event, to: &decoder, handle) }
        decoder.record(framing: framer.statistics)
        decoder.flush(handle)
        self.decoder = decoder
    }

    /// Emits the open epoch now (the source went quiet, or is about to stop).
    public mutating func flush(_ handle: (Event) -> Void) {
        decoder.flush(handle)
    }

    /// See `EpochAssembler.setDateHint`.
    public mutating func setDateHint(_ time: UTCTime?) {
        decoder.setDateHint(time)
    }

    /// Moves the decoder out so that the framer's callback can mutate it without copying its storage.
    private mutating func takeDecoder() -> NMEADecoder {
        var taken = NMEAReader.placeholder
        swap(&taken, &decoder)
        return taken
    }

    private static let placeholder = NMEADecoder()

    private static func pass(_ event: NMEAFramer.Event, to decoder: inout NMEADecoder, _ handle: (Event) -> Void) {
        switch event {
        case .sentence(let bytes, let position):
            decoder.decode(sentence: bytes, at: position, handle)
        case .dropped(let problem, let position, let excerpt):
            decoder.framingProblem(problem, at: position, excerpt: excerpt, handle)
        }
    }
}
