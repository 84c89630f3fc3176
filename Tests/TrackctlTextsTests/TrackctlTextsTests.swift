import Foundation
import Testing
import TrackCore
import TrackctlTexts

/// trackctl's sentences in German and Estonian (`SaidTexts`): every `t("…")` of Sources/trackctl has its
/// translation in each table with the same values, no table keeps a sentence trackctl no longer says, and a
/// sentence is put together in its language with its values where the language puts them.
struct TrackctlTextsTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/trackctl")

    /// Every key of trackctl's `t("…")` calls, with the file that says it.
    static func keys() throws -> [String: String] {
        var keys: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() where file.hasSuffix(".swift") {
            let source = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for key in try SaidLiteralScanner.keys(in: source) { keys[key] = file }
        }
        return keys
    }

    /// The `{n}` of a text, sorted: the values it puts in.
    static func placeholders(_ text: String) -> [String] {
        text.matches(of: /\{[0-9]+\}/).map { String($0.output) }.sorted()
    }

    @Test(arguments: [Language.german, .estonian])
    func everySentenceOfTrackctlIsInTheTableWithItsValuesAndNoOtherSentence(language: Language) throws {
        let keys = try Self.keys()
        #expect(keys.count > 100, "trackctl's sentences were found: \(keys.count)")
        // For a translator: TRACKCTL_TEXTS_MISSING=FILE writes the sentences a table lacks there, a JSON object of
        // English to "" per language.
        if let file = ProcessInfo.processInfo.environment["TRACKCTL_TEXTS_MISSING"] {
            let table = SaidTexts.table(of: language) ?? [:]
            let missing = Dictionary(uniqueKeysWithValues: keys.keys.filter { table[$0] == nil }.map { ($0, "") })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(missing).write(to: URL(fileURLWithPath: "\(file).\(language.rawValue).json"))
        }
        let table = try #require(SaidTexts.table(of: language))
        let missing = keys.keys.filter { table[$0] == nil }.sorted()
        #expect(missing.isEmpty, "\(language): \(missing.count) missing: \(missing.map { "\(keys[$0]!): \($0)" })")
        let stale = table.keys.filter { keys[$0] == nil }.sorted()
        #expect(stale.isEmpty, "\(language): \(stale.count) trackctl no longer says: \(stale)")
        for (key, text) in table {
            #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(language): '\(key)' is empty")
            #expect(Self.placeholders(text) == Self.placeholders(key), "\(language): '\(key)' → '\(text)'")
            // Spaces that line a word up in a column (status's "  fix      …") stay as many.
            #expect(text.prefix { $0 == " " }.count == key.prefix { $0 == " " }.count, "\(language): '\(key)' → '\(text)'")
        }
    }

    @Test(arguments: [Language.german, .estonian])
    func theTablesAreTranslatedNotCopied(language: Language) throws {
        // A few words are the same in every language (ID, VIN, obd, Traccar, a figure with its unit); a table that
        // kept the English would have them all.
        let table = try #require(SaidTexts.table(of: language))
        let same = table.filter { $0.key == $0.value }.keys.sorted()
        #expect(same.count * 20 < table.count, "\(language): \(same.count) the same as in English: \(same)")
    }

    @Test func anInterpolatedSentenceIsItsEnglishWithNumberedValues() {
        let number = 7
        let distance = "12.4 km"
        let said: Said = "trip \(number) stopped: \(distance)"
        #expect(said.key == "trip {0} stopped: {1}")
        #expect(said.values == ["7", "12.4 km"])
        #expect(said.text(in: .english) == "trip 7 stopped: 12.4 km")
    }

    @Test func aTranslationPutsTheValuesWhereItsLanguageWantsThem() {
        let said = Said(key: "{0} of {1}", values: ["3", "5"])
        #expect(Said.fill("{1}-st {0}", with: said.values) == "5-st 3")
        #expect(Said.fill("{x} {0} {", with: ["a"]) == "{x} a {")
    }

    @Test func theScannerReadsLiteralsAsTheCompilerDoes() throws {
        let source = #"""
            let a = t("trip \(trip.number) of \(count(of: "x")) \"quoted\"") // t("in a comment")
            /* t("in a block") */ let b = "t(\"not a call\")"
            let c = t("""
                first line \(x.map { "\($0)" } ?? ""), \
                continued
                  second
                """)
            let d = at("not ours"), e = x.t("not ours either")
            """#
        let keys = try SaidLiteralScanner.keys(in: source)
        #expect(keys == ["trip {0} of {1} \"quoted\"", "first line {0}, continued\n  second"])
        #expect(throws: SaidLiteralScanner.NotALiteral.self) { try SaidLiteralScanner.keys(in: "let x = t(variable)") }
    }

    @Test func theTerminalsLocaleChoosesTheLanguageAndCLeavesItToTheProfile() {
        #expect(Speech.terminalLanguage(["LANG": "de_DE.UTF-8"]) == .german)
        #expect(Speech.terminalLanguage(["LANG": "C.UTF-8"]) == nil)
        #expect(Speech.terminalLanguage([:]) == nil)
        #expect(Speech.terminalLanguage(["LANG": "POSIX"]) == nil)
        #expect(Speech.terminalLanguage(["LANG": "de_DE.UTF-8", "LC_ALL": "et_EE.UTF-8"]) == .estonian)
        #expect(Speech.terminalLanguage(["LANG": "de_DE.UTF-8", "LC_MESSAGES": "en_GB.UTF-8"]) == .english)
        #expect(Speech.terminalLanguage(["LANG": "fr_FR.UTF-8"]) == .english)
        #expect(Speech.terminalLanguage(["LANG": "fr_FR.UTF-8", "LANGUAGE": "fr:et"]) == .estonian)
        // LANGUAGE is not heeded under the C locale (as gettext does not).
        #expect(Speech.terminalLanguage(["LANG": "C.UTF-8", "LANGUAGE": "de"]) == nil)
    }
}
