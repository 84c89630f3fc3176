import TrackCore
import TrackReports

/// The pairing page: the one page served without a session. A plain form (it works without scripts) that sends the
/// code and a name for the device; `trackctl web pair`'s address fills the code in.
enum PairPage {
    /// The page, with `code` filled in and `message` (a refusal) shown above the form; `claimable`: no device has
    /// paired yet, so the owner code is asked for too; in `words`' language.
    static func html(code: String, message: String?, claimable: Bool = false, words: PairWords = .english) -> String {
        let note = message.map { "<p class=\"refusal\" role=\"alert\">\(MarkupText.escape($0))</p>" } ?? ""
        let intro = "<p>" + (claimable ? words.claimIntro : words.intro) + "</p>"
        let title = claimable ? words.claimTitle : words.title
        return """
            <!doctype html>
            <html lang="\(words.language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(MarkupText.escape(title)) · trackd</title>
            <link rel="icon" href="data:,">
            <link rel="stylesheet" href="/pair.css">
            </head>
            <body class="pair">
            <main>
            <h1>\(MarkupText.escape(title))</h1>
            \(intro)
            \(note)
            <form method="post" action="/api/pair">
            <label>\(MarkupText.escape(claimable ? words.ownerCode : words.code)) <input name="code" inputmode="\(claimable ? "text" : "numeric")" \
            autocomplete="off" autocapitalize="characters" required \
            value="\(MarkupText.escape(code))"></label>
            <label>\(MarkupText.escape(words.deviceName)) <input name="name" maxlength="80" placeholder="\(MarkupText.escape(words.namePlaceholder))"></label>
            <button type="submit" class="primary">\(MarkupText.escape(claimable ? words.claim : words.pair))</button>
            </form>
            </main>
            </body>
            </html>

            """
    }
}
