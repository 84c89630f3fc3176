/// Why a text is not an e-mail address trackd sends to.
public enum MailAddressError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No address at all.
    case empty
    /// The text, and what is wrong with it.
    case invalid(String, reason: String)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .empty:
            "an e-mail address is empty: give one such as driver@example.org"
        case .invalid(let text, let reason):
            "'\(text)' is not an e-mail address trackd sends to: \(reason); give the bare address "
                + "(driver@example.org), without a name or angle brackets"
        }
    }
}
