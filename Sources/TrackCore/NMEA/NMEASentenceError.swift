/// Why a sentence was rejected.
public enum NMEASentenceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `*hh` checksum does not match the sentence: it was damaged on the way.
    case badChecksum(stated: UInt8, computed: UInt8)
    /// Something after `*` that is not two hexadecimal digits.
    case malformedChecksum
    /// No checksum in a stream whose sentences carry checksums: most likely the end was cut off.
    case checksumMissing
    /// No address field (`$,…` or a lone `$`).
    case missingAddress
    /// A field that is present but cannot be read.
    case invalidField(type: NMEASentenceType, index: Int, name: String, value: String)
    /// A field that must accompany another one is empty (a latitude without N/S).
    case missingField(type: NMEASentenceType, index: Int, name: String)

    public var description: String {
        switch self {
        case .badChecksum(let stated, let computed):
            "checksum mismatch: sentence says \(stated.hexDigits), contents give \(computed.hexDigits)"
        case .malformedChecksum:
            "malformed checksum (expected '*' and two hex digits at the end)"
        case .checksumMissing:
            "no checksum although this receiver sends them: the sentence was most likely cut short"
        case .missingAddress:
            "no sentence address after '$'"
        case .invalidField(let type, let index, let name, let value):
            "\(type) field \(index) (\(name)) is not valid: '\(value)'"
        case .missingField(let type, let index, let name):
            "\(type) field \(index) (\(name)) is missing"
        }
    }
}
