/// A language trackd speaks to a person in: the page, trackctl's messages, `check`'s findings and the monthly mail
/// (docs/web.md, "In the driver's language"). The reports for a tax office are in its country's language.
public enum Language: String, Sendable, Hashable, Codable, CaseIterable {
    case english = "en"
    case german = "de"
    case estonian = "et"

    /// The language of a locale name as the environment gives it (`de_DE.UTF-8`, `et`, `en-GB`); `nil` for one
    /// trackd does not speak, and for `C` and `POSIX`.
    public init?(locale: String) {
        let code = locale.prefix { $0 != "_" && $0 != "-" && $0 != "." && $0 != "@" }.lowercased()
        self.init(rawValue: code)
    }

    /// The language's name in itself (`Deutsch`).
    public var ownName: String {
        switch self {
        case .english: "English"
        case .german: "Deutsch"
        case .estonian: "Eesti"
        }
    }
}
