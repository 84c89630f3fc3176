/// A table of words with one instance per language trackd speaks (the report's labels, `check`'s findings, the mail,
/// the pairing page): `of(_:)` picks a language's.
public protocol LanguageTable {
    static var english: Self { get }
    static var german: Self { get }
    static var estonian: Self { get }
}

extension LanguageTable {
    /// The table of `language`.
    public static func of(_ language: Language) -> Self {
        switch language {
        case .english: english
        case .german: german
        case .estonian: estonian
        }
    }
}
