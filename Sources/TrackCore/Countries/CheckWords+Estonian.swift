extension CheckWords {
    /// Leiud eesti keeles.
    public static let estonian = CheckWords(
        language: .estonian,
        whoAsks: { country, what in
            switch country {
            case .germany: "Finanzamt nõuab \(what) (R 8.1 Abs. 9 Nr. 2 LStR)"
            case .estonia: "Maksu- ja Tolliamet nõuab \(what) (Vabariigi Valitsuse määrus nr 164 § 4)"
            case .unitedKingdom: "HMRC nõuab \(what) (iga ametisõidu kuupäev, sihtkoht, eesmärk ja läbitud miilid)"
            case .unitedStates: "IRS nõuab \(what) (Publication 463, 5. peatükk „Recordkeeping“)"
            case nil: "maksuamet nõuab \(what)"
            }
        },
        driver: "juhi nime", plate: "sõiduki registreerimismärki", purposeOfEach: "iga ametisõidu eesmärki",
        precisePurpose: { "täpset eesmärki (klient, objekt, ülesanne), mitte ainult „\($0)“" },
        partnersVisited: "külastatud äripartnereid (aufgesuchte Geschäftspartner)",
        destinationWithAddress: "sihtkohta koos aadressiga (Reiseziel mit Anschrift)",
        destinationOfEach: "iga ametisõidu sihtkohta",
        noDriver: "profiilis puudub juht", noPlate: "profiilis puudub registreerimismärk",
        nameValue: "NIMI", plateValue: "NUMBER", reasonValue: "…", purposeValue: "milleks",
        whomValue: "kelle või mille jaoks", addressValue: "TÄNAV NR, LINN",
        unclassified: "ei ameti- ega erasõit",
        unclassifiedWhy: "sõidupäeviku iga sõit on kas ameti- või erasõit; liigitamata sõitu arvestatakse erasõiduna",
        orPrivate: "või",
        toConfirm: { "liigitatud reegli „\($0)“ järgi, juht pole seda kinnitanud" },
        toConfirmWhy: "juht vastutab iga kande eest; liigitus, mida keegi pole kinnitanud, on vaid programmi oletus",
        toConfirmFix: { "\($0) (või \($1))" },
        purposeMissing: "ametisõidul puudub eesmärk",
        purposeVague: { "eesmärk „\($0)“ ei ütle, milleks sõit tehti" },
        customerMissing: "ametisõidul puudub külastatud äripartner",
        addressMissing: "ametisõidul puudub sihtkoha aadress",
        destinationMissing: "ametisõidul puudub sihtkoht",
        orNamedPlace: "või salvestatud koht koos aadressiga",
        postcodes: { start, end in
            start && end ? "alg- ja lõppkoha sihtnumbreid" : start ? "algkoha sihtnumbrit" : "lõppkoha sihtnumbrit"
        },
        postcodesMissing: { "ametisõidul pole \($0)" },
        postcodesWhy: "HMRC juhend töötajate ametisõitude kohta nõuab iga ametisõidu alg- ja lõppkoha sihtnumbrit ning "
            + "sõidu põhjust",
        postcodesFix: { "\($0) --from KOHT --to KOHT --reason \"…\", kohtadega, mille aadressis on sihtnumber (trackctl place "
            + "add … --address \"…, SW1A 1AA\"; või --destination lõppkoha sihtnumbriga)" },
        late: { fields, days in
            let names = fields?.map { (field: String) -> String in
                switch field {
                case "purpose": "eesmärk"
                case "kind": "liik"
                case "customer": "klient"
                case "destination": "sihtkoht"
                case "detour": "kõrvalekalle"
                case "start_place": "algkoht"
                case "end_place": "lõppkoht"
                case "commute": "kodu–töö"
                case "confirmed": "kinnitus"
                default: field
                }
            }
            return (names.map { "muudetud (\($0.joined(separator: ", ")))" } ?? "sisestatud")
                + " \(days) \(days == 1 ? "päev" : "päeva") pärast sõitu"
        },
        lateWhy: { "Finanzamt aktsepteerib ainult õigeaegselt peetud sõidupäevikut (Fahrtenbuch, zeitnah, BFH VI R 64/04); "
            + "üle \($0) päeva hilinenud kannete tõttu võidakse kogu päevik tagasi lükata" },
        lateFix: { "seda ei saa tagantjärele parandada: tee kanded ja muudatused edaspidi \($0) päeva jooksul pärast sõitu" },
        ends: { "sõit \($0) lõpeb näiduga \($1), sõit \($2) algab näiduga \($3)" },
        gap: { "enne seda sõitu puudub \($0): \($1)" },
        gapWhy: "järjestikused kanded peavad haakuma: odomeetri näit ühe kande lõpus on järgmise kande algusnäit",
        gapFix: { "trackctl add --distance \($0) --private|--business … vahepeal sõidetu kohta või trackctl odometer set "
            + "näidikult loetud näiduga" },
        overlap: { "\($0) on arvestatud kaks korda: \($1)" },
        overlapWhy: "järjestikused kanded peavad haakuma: kanne ei saa alata väiksema näiduga, kui eelmine lõppes",
        overlapFix: { "trackctl edit \($0) (või sõit \($1)) õige odomeetri näiduga või kustuta kaks korda arvestatud kanne" },
        rateUnconfirmed: { count, country, through in
            (count == 1 ? "1 ametisõit" : "\(count) ametisõitu") + " hüvitati viimase teadaoleva määraga: "
                + (through.map { "\(country.rawValue) määrad on teadaolevalt kehtivad ainult kuni \($0)" }
                   ?? "määrade tabel ei kinnita ühtegi \(country.rawValue) määrade päeva")
        },
        rateWhy: { country in
            "hüvitis on maksuvaba ainult sõidupäeval kehtinud määra ulatuses ja "
                + (country == .unitedKingdom ? "HMRC võib olla määra vahepeal muutnud"
                   : country == .unitedStates ? "IRS võib olla määra vahepeal muutnud" : "määr võib olla vahepeal muutunud")
        },
        rateFix: { "\($0); lisa uus määr koos allikaga faili kataloogis /etc/trackd/rates.d/ (docs/countries.md, "
            + "jaotis „The allowance“)" },
        trip: { "sõit \($0)" }, profile: "profiil", why: "miks", fix: "lahendus",
        rules: { country in
            guard let country else { return "kõigi sõidupäevikute üldreeglite järgi (profiilis pole riiki)" }
            let name = switch country {
            case .estonia: "Eesti"
            case .germany: "Saksamaa"
            case .unitedKingdom: "Ühendkuningriigi"
            case .unitedStates: "Ameerika Ühendriikide"
            }
            return "\(name) reeglite ja kõigi sõidupäevikute üldreeglite järgi"
        },
        nothing: { "\($0) pole midagi küsitavat" },
        count: { "\($0) \($0 == 1 ? "leid" : "leidu") \($1)" })
}
