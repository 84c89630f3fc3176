import TrackReports

/// The pairing page: the one page served without a session. A plain form (it works without scripts) that sends the
/// code and a name for the device; `trackctl web pair`'s address fills the code in.
enum PairPage {
    /// The page, with `code` filled in and `message` (a refusal) shown above the form.
    static func html(code: String, message: String?) -> String {
        let note = message.map { "<p class=\"refusal\" role=\"alert\">\(MarkupText.escape($0))</p>" } ?? ""
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>Pair this device · trackd</title>
            <link rel="icon" href="data:,">
            <link rel="stylesheet" href="/pair.css">
            </head>
            <body class="pair">
            <main>
            <h1>Pair this device</h1>
            <p>Enter the code that <code>trackctl web pair</code> printed on the board. It is valid for ten minutes \
            and once only.</p>
            \(note)
            <form method="post" action="/api/pair">
            <label>Code <input name="code" inputmode="numeric" autocomplete="one-time-code" required \
            value="\(MarkupText.escape(code))"></label>
            <label>Name of this device <input name="name" maxlength="80" placeholder="Anna's phone"></label>
            <button type="submit" class="primary">Pair</button>
            </form>
            </main>
            </body>
            </html>

            """
    }
}
