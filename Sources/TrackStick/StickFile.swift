/// One file trackd-stick puts on a stick: its name in the car's folder, a fingerprint of what it says (the same for
/// the same log, whenever it is made), and its bytes, made only when the stick does not hold them yet.
public struct StickFile: Sendable {
    /// The name in the folder (`2026-11.html`).
    public let name: String
    /// SHA-256 (hex) of the file as made with its time of making fixed: equal fingerprints, the same content.
    public let fingerprint: String
    /// The file's bytes, as they are written.
    public let contents: @Sendable () throws(StickError) -> [UInt8]

    public init(name: String, fingerprint: String, contents: @escaping @Sendable () throws(StickError) -> [UInt8]) {
        self.name = name
        self.fingerprint = fingerprint
        self.contents = contents
    }
}
