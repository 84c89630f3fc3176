/// Why bytes are not a usable TZif file (RFC 8536) or a footer's TZ string is not a POSIX time-zone rule.
public enum ZoneRulesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file does not begin with `TZif`.
    case notTZif
    /// A version byte other than 0 (version 1), `2`, `3` or `4`.
    case unsupportedVersion(UInt8)
    /// The file ends inside a part: which part, how many bytes it needs from where it starts, how many are there.
    case truncated(part: String, needed: Int, available: Int)
    /// A header's counts, or a value in the data block, that RFC 8536 does not allow.
    case invalidData(String)
    /// The footer's TZ string, and what is wrong with it.
    case invalidRule(String, reason: String)

    /// What went wrong.
    public var description: String {
        switch self {
        case .notTZif:
            "not a TZif file: it does not begin with 'TZif'"
        case .unsupportedVersion(let version):
            "TZif version byte \(version) is not one of 0, '2', '3', '4'"
        case .truncated(let part, let needed, let available):
            "the TZif file is cut short in its \(part): \(needed) bytes needed, \(available) there"
        case .invalidData(let reason):
            "the TZif file is not valid: \(reason)"
        case .invalidRule(let text, let reason):
            "'\(text)' is not a POSIX TZ rule: \(reason)"
        }
    }
}
