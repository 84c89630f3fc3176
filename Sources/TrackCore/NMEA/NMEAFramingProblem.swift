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
