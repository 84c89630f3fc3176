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
