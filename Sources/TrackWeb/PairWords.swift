import TrackCore

/// Every word of the pairing page and of trackd-web's "not paired" answers in one language: a device that is not
/// paired yet has no choice of its own the board could know, so the browser's (`Accept-Language`) chooses.
struct PairWords: Sendable, LanguageTable {
    var language: Language
    var title: String
    var claimTitle: String
    /// The paragraph above the form (HTML: it names files in `<code>`).
    var intro: String
    var claimIntro: String
    var code: String
    var ownerCode: String
    var deviceName: String
    var namePlaceholder: String
    var pair: String
    var claim: String
    var wrongOwnerCode: String
    var wrongCode: String
    var throttled: @Sendable (_ seconds: Int) -> String
    var notPaired: String

    /// The first language of `acceptLanguage` (`de-DE,de;q=0.9,en;q=0.8`) the page speaks, else English.
    static func of(acceptLanguage: String?) -> PairWords {
        let tags = (acceptLanguage ?? "").split(separator: ",").map { tag in
            let parts = tag.split(separator: ";").map { String($0).trimmingWhitespace }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (name: parts.first ?? "", weight: weight)
        }
        // The most wanted first; equal weights in the order given.
        let wanted = tags.enumerated().sorted { ($0.element.weight, -$0.offset) > ($1.element.weight, -$1.offset) }
        let language = wanted.lazy.filter { $0.element.weight > 0 }.compactMap { Language(locale: $0.element.name) }.first
        return .of(language ?? .english)
    }

    static let english = PairWords(
        language: .english, title: "Pair this device", claimTitle: "Claim this board",
        intro: "Enter the code that <code>trackctl web pair</code> printed on the board. It is valid for ten minutes and "
            + "once only.",
        claimIntro: "A new board: enter its <strong>owner code</strong> (in <code>trackd-setup-result.txt</code> on the "
            + "card, or the one you wrote into <code>trackd-setup.txt</code>). The first device that gives it becomes "
            + "the driver's; after that, new devices pair with a code made at the board.",
        code: "Code", ownerCode: "Owner code", deviceName: "Name of this device", namePlaceholder: "Anna's phone",
        pair: "Pair", claim: "Claim",
        wrongOwnerCode: "That is not the board's owner code. Check it in trackd-setup-result.txt on the card.",
        wrongCode: "That code is not valid (wrong, used or older than ten minutes). Check it, or make a new one with "
            + "'trackctl web pair'.",
        throttled: { "Too many wrong codes in a row: try again in \($0) s, or make a new code on the board." },
        notPaired: "This device is not paired with the car's logger. At the board, run 'trackctl web pair' and open the "
            + "address it prints (or scan its QR code).")

    static let german = PairWords(
        language: .german, title: "Dieses Gerät koppeln", claimTitle: "Diese Box übernehmen",
        intro: "Geben Sie den Code ein, den <code>trackctl web pair</code> an der Box ausgegeben hat. Er gilt zehn "
            + "Minuten und nur einmal.",
        claimIntro: "Eine neue Box: Geben Sie ihren <strong>Besitzercode</strong> ein (in <code>trackd-setup-result.txt</code> "
            + "auf der Karte, oder den Sie in <code>trackd-setup.txt</code> eingetragen haben). Das erste Gerät, das ihn "
            + "eingibt, wird das des Fahrers; danach koppeln neue Geräte mit einem Code, der an der Box erzeugt wird.",
        code: "Code", ownerCode: "Besitzercode", deviceName: "Name dieses Geräts", namePlaceholder: "Annas Handy",
        pair: "Koppeln", claim: "Übernehmen",
        wrongOwnerCode: "Das ist nicht der Besitzercode der Box. Prüfen Sie ihn in trackd-setup-result.txt auf der Karte.",
        wrongCode: "Dieser Code ist nicht gültig (falsch, schon benutzt oder älter als zehn Minuten). Prüfen Sie ihn, oder "
            + "erzeugen Sie mit „trackctl web pair“ einen neuen.",
        throttled: { "Zu viele falsche Codes hintereinander: versuchen Sie es in \($0) s erneut, oder erzeugen Sie an der "
            + "Box einen neuen Code." },
        notPaired: "Dieses Gerät ist nicht mit dem Fahrtenbuch des Fahrzeugs gekoppelt. Führen Sie an der Box „trackctl web "
            + "pair“ aus und öffnen Sie die Adresse, die es ausgibt (oder scannen Sie seinen QR-Code).")

    static let estonian = PairWords(
        language: .estonian, title: "Seo see seade", claimTitle: "Võta seade kasutusele",
        intro: "Sisesta kood, mille <code>trackctl web pair</code> seadmes väljastas. See kehtib kümme minutit ja ainult "
            + "üks kord.",
        claimIntro: "Uus seade: sisesta selle <strong>omaniku kood</strong> (kaardil failis <code>trackd-setup-result.txt</code> "
            + "või see, mille kirjutasid faili <code>trackd-setup.txt</code>). Esimene seade, mis selle sisestab, saab "
            + "juhi seadmeks; pärast seda seotakse uued seadmed seadmes loodud koodiga.",
        code: "Kood", ownerCode: "Omaniku kood", deviceName: "Selle seadme nimi", namePlaceholder: "Anna telefon",
        pair: "Seo", claim: "Võta kasutusele",
        wrongOwnerCode: "See ei ole seadme omaniku kood. Kontrolli seda kaardil failis trackd-setup-result.txt.",
        wrongCode: "See kood ei kehti (vale, juba kasutatud või vanem kui kümme minutit). Kontrolli seda või loo uus käsuga "
            + "„trackctl web pair“.",
        throttled: { "Liiga palju valesid koode järjest: proovi uuesti \($0) s pärast või loo seadmes uus kood." },
        notPaired: "See seade ei ole auto sõidupäevikuga seotud. Käivita seadmes „trackctl web pair“ ja ava aadress, mille "
            + "see väljastab (või skaneeri selle QR-kood).")
}
