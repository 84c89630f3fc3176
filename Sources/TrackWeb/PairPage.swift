import TrackReports

/// The pairing page: the one page served without a session. A plain form (it works without scripts) that sends the
/// code and a name for the device; `trackctl web pair`'s address fills the code in.
enum PairPage {
    /// The page, with `code` filled in and `message` (a refusal) shown above the form; `claimable`: no device has
    /// paired yet, so the owner code is asked for too.
    static func html(code: String, message: String?, claimable: Bool = false) -> String {
        let note = message.map { "<p class=\"refusal\" role=\"alert\">\(MarkupText.escape($0))</p>" } ?? ""
        let intro = claimable
            ? "<p>A new board: enter its <strong>owner code</strong> (in <code>trackd-setup-result.txt</code> on the "
                + "card, or the one you wrote into <code>trackd-setup.txt</code>). The first device that gives it becomes "
                + "the driver's; after that, new devices pair with a code made at the board.</p>"
            : "<p>Enter the code that <code>trackctl web pair</code> printed on the board. It is valid for ten minutes "
                + "and once only.</p>"
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
            <h1>\(claimable ? "Claim this board" : "Pair this device")</h1>
            \(intro)
            \(note)
            <form method="post" action="/api/pair">
            <label>\(claimable ? "Owner code" : "Code") <input name="code" inputmode="\(claimable ? "text" : "numeric")" \
            autocomplete="one-time-code" autocapitalize="characters" required \
            value="\(MarkupText.escape(code))"></label>
            <label>Name of this device <input name="name" maxlength="80" placeholder="Anna's phone"></label>
            <button type="submit" class="primary">\(claimable ? "Claim" : "Pair")</button>
            </form>
            </main>
            </body>
            </html>

            """
    }
}
