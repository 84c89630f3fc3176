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
