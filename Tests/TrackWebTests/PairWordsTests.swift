import Testing
import TrackCore
@testable import TrackWeb

/// The pairing page in the browser's language (Accept-Language), every word of it.
struct PairWordsTests {
    @Test func theBrowsersMostWantedLanguageThePageSpeaksIsTaken() {
        #expect(PairWords.of(acceptLanguage: "de-DE,de;q=0.9,en;q=0.8").language == .german)
        #expect(PairWords.of(acceptLanguage: "fr-FR,fr;q=0.9,et;q=0.8,en;q=0.5").language == .estonian)
        #expect(PairWords.of(acceptLanguage: "en;q=0.5, et;q=0.7").language == .estonian, "by weight, not by order")
        #expect(PairWords.of(acceptLanguage: "de;q=0, en-GB").language == .english, "q=0 is not wanted")
        #expect(PairWords.of(acceptLanguage: "fr").language == .english)
        #expect(PairWords.of(acceptLanguage: nil).language == .english)
    }

    @Test(arguments: [PairWords.german, PairWords.estonian])
    func everyWordOfThePageIsTheLanguagesAndTheFormIsTheSame(words: PairWords) {
        for claimable in [false, true] {
            let page = PairPage.html(code: "123456", message: words.wrongCode, claimable: claimable, words: words)
            let english = PairPage.html(code: "123456", message: PairWords.english.wrongCode, claimable: claimable)
            #expect(page.contains("<html lang=\"\(words.language.rawValue)\">"))
            // The form posts the same fields; no sentence of the English page is left.
            for field in ["action=\"/api/pair\"", "name=\"code\"", "value=\"123456\"", "name=\"name\"", "type=\"submit\""] {
                #expect(page.contains(field) && english.contains(field))
            }
            for text in [PairWords.english.title, PairWords.english.claimTitle, PairWords.english.deviceName,
                         PairWords.english.namePlaceholder, PairWords.english.wrongCode, "Enter the code", "A new board",
                         ">Pair<", ">Claim<"] {
                #expect(!page.contains(text), "\(words.language): \(text)")
            }
        }
        #expect(words.throttled(30).contains("30") && words.throttled(30) != PairWords.english.throttled(30))
        #expect(!words.notPaired.isEmpty && words.notPaired != PairWords.english.notPaired && words.notPaired.contains("trackctl web pair"))
    }
}
