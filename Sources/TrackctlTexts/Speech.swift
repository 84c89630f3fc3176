import Synchronization
import TrackCore

/// The language trackctl speaks in (docs/web.md, "trackctl in the driver's language"): the terminal's, when its locale names one
/// trackd speaks (`LC_ALL`, `LC_MESSAGES`, `LANG`, and `LANGUAGE`'s list before them); else, for a locale of `C` or
/// `POSIX` or none, the log's profile's (`LogProfile.language`) once trackctl has heard it from trackd or read it
/// from a `--db` file; else English.
public enum Speech {
    private static let state = Mutex(State())

    private struct State {
        var terminal: Language?
        var profile: Language?
        var heardProfile = false
    }

    /// The language to speak in now.
    public static var language: Language {
        state.withLock { $0.terminal ?? $0.profile ?? .english }
    }

    /// Whether the profile's language is still to be heard: the terminal named none, and none was heard yet.
    public static var listensToProfile: Bool {
        state.withLock { $0.terminal == nil && !$0.heardProfile }
    }

    /// Takes the terminal's language from `environment` (trackctl's, once at its start).
    public static func hear(environment: [String: String]) {
        let language = terminalLanguage(environment)
        state.withLock { $0.terminal = language }
    }

    /// Takes the log's profile's language, spoken unless the terminal named one.
    public static func hear(profile language: Language?) {
        state.withLock {
            $0.profile = language
            $0.heardProfile = true
        }
    }

    /// The language a terminal's environment asks for: `nil` when its locale is `C`, `POSIX` or unset (the
    /// profile decides then), English for a language trackd does not speak.
    public static func terminalLanguage(_ environment: [String: String]) -> Language? {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale, !["C", "POSIX"].contains(locale.prefix { $0 != "." && $0 != "@" }) else { return nil }
        // GNU's LANGUAGE: a list of languages in order of preference, heeded when the locale is not C.
        let preferred = (environment["LANGUAGE"] ?? "").split(separator: ":").compactMap { Language(locale: String($0)) }
        return preferred.first ?? Language(locale: locale) ?? .english
    }
}
