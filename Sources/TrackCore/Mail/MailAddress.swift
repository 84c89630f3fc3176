/// An e-mail address as a message's header and msmtp's command line take it: `local@domain`, ASCII, no display name,
/// nothing a header or a command line could read as more than one address or as an option.
public struct MailAddress: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `driver@example.org`.
    public let text: String

    /// The address in `text`, checked; throws naming what is wrong with it.
    public init(_ text: String) throws(MailAddressError) {
        let characters = Array(text.utf8)
        guard !characters.isEmpty else { throw .empty }
        guard characters.count <= 254 else { throw .invalid(text, reason: "it is longer than 254 characters") }
        guard characters.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalid(text, reason: "it has a space, a control character or a letter beyond ASCII")
        }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last, !local.isEmpty, !domain.isEmpty else {
            throw .invalid(text, reason: "it needs one '@' between a name and a domain, as in driver@example.org")
        }
        guard local.first != "-" else { throw .invalid(text, reason: "it begins with '-'") }
        let specials: Set<Character> = ["<", ">", "(", ")", ",", ";", ":", "\\", "\"", "[", "]"]
        guard !local.contains(where: specials.contains) else {
            throw .invalid(text, reason: "the part before '@' has one of < > ( ) , ; : \\ \" [ ]")
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        let labelCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
        guard labels.allSatisfy({ !$0.isEmpty && $0.count <= 63 && $0.allSatisfy(labelCharacters.contains)
                                    && $0.first != "-" && $0.last != "-" }) else {
            throw .invalid(text, reason: "'\(domain)' is not a domain name such as example.org")
        }
        self.text = text
    }

    /// The part after the `@`.
    public var domain: String { String(text[text.index(after: text.firstIndex(of: "@")!)...]) }

    public var description: String { text }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
