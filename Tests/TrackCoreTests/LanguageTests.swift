import Testing
import TrackCore

/// The languages trackd speaks, and a locale's.
struct LanguageTests {
    @Test func aLocaleNameGivesItsLanguage() {
        #expect(Language(locale: "de_DE.UTF-8") == .german)
        #expect(Language(locale: "et_EE.utf8") == .estonian)
        #expect(Language(locale: "en-GB") == .english)
        #expect(Language(locale: "C.UTF-8") == nil)
        #expect(Language(locale: "POSIX") == nil)
        #expect(Language(locale: "fr_FR") == nil)
    }

    @Test func eachLanguageIsNamedInItself() {
        #expect(Language.allCases.map(\.ownName) == ["English", "Deutsch", "Eesti"])
    }
}
