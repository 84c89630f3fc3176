import TrackCore

/// trackctl's sentences in the languages it speaks besides English, one table per language
/// (`SaidTexts+German.swift`, `SaidTexts+Estonian.swift`): each English key (`Said.key`) with its translation, the
/// same `{n}` in it. `TrackctlTextsTests` fails when a sentence of trackctl's is missing from a table, or a table
/// keeps one trackctl no longer says.
public enum SaidTexts {
    /// The table of `language`; `nil` for English, the language the sentences are written in.
    public static func table(of language: Language) -> [String: String]? {
        switch language {
        case .english: nil
        case .german: german
        case .estonian: estonian
        }
    }
}
