import TrackCore

extension ReportLabels {
    /// Sõidupäevik eesti keeles.
    public static let estonian = ReportLabels(
        code: "et", decimalSeparator: ",", thousandsSeparator: " ", title: "Sõidupäevik",
        months: ["jaanuar", "veebruar", "märts", "aprill", "mai", "juuni", "juuli", "august", "september", "oktoober",
                 "november", "detsember"],
        driver: "Juht", plate: "Registreerimismärk", company: "Ettevõte",
        car: "Sõiduk", carOwnership: [.own: "töötaja isiklik sõiduk (hüvitis)", .company: "ettevõtte sõiduk (hüvitiseta)"],
        timeZone: "Ajavöönd", generated: "Koostatud",
        generatedBy: "Koostaja", tripsOnly: "Sõidud", only: { "ainult \($0)" },
        periodRange: { "(\($0) kuni \($1))" },
        trips: "Sõidud",
        columns: [.number: "Nr", .date: "Kuupäev", .start: "Algus", .end: "Lõpp", .odometerStart: "Odomeeter alguses",
                  .odometerEnd: "Odomeeter lõpus", .distance: "Läbisõit", .businessDistance: "Ametisõit",
                  .privateDistance: "Erasõit", .commuteDistance: "Kodu–töö", .amount: "Hüvitis", .kind: "Liik",
                  .purpose: "Sõidu eesmärk", .whereabouts: "Klient / sihtkoht / kust → kuhu",
                  .destination: "Sihtkoht ja aadress", .customer: "Klient", .detours: "Kõrvalekalded",
                  .notes: "Märkused"],
        kinds: [.business: "ametisõit", .private: "erasõit", .unclassified: "liigitamata"],
        commute: "kodu–töö",
        noTrips: "Selles perioodis sõite ei olnud.", allTrips: "Kõik sõidud", totalOf: { "Kokku, \($0)" },
        tripCount: { $0 == 1 ? "1 sõit" : "\($0) sõitu" },
        odometerReadings: "Odomeetri näidud",
        sources: [.car: ("A", "loetud autost (OBD-II)"), .dashboard: ("N", "näidikult loetud ja sisestatud"),
                  .gps: ("G", "jätkatud GPS-i kilomeetritega")],
        notes: NoteLabels(
            deleted: { "kustutatud: \($0)" }, deletedWithoutReason: "kustutatud (põhjuseta)",
            purposeMissing: "eesmärk puudub", unrecorded: "salvestamata: leitud odomeetri näidu järgi",
            correction: "parandus: päevik oli odomeetrist ees", regular: { "korduv sõit „\($0)“" },
            routeWithheld: "marsruuti ei säilitata (erasõit, privaatsusrežiim)", routeErased: "marsruut kustutatud",
            outages: { "\($0 == 1 ? "1 katkestus" : "\($0) katkestust"), \($1) sillatud" },
            idleAlerts: { $0 == 1 ? "1 seisuhoiatus" : "\($0) seisuhoiatust" },
            cutOffByPowerLoss: "katkes toitekao tõttu, veel taastamata", stillRecorded: "salvestamisel",
            endedByPowerLoss: "lõppes toitekao tõttu", endedByShutdown: "lõppes seiskamisel",
            endedOnRestart: "lõppes taaskäivitusel", ended: { "lõppes: \($0)" }, endsOn: { "lõpeb \($0)" },
            changed: "muudetud pärast kirjutamist (vt muudatuste ajalugu)"),
        allowance: { country in
            let name = switch country {
            case .estonia: "Eesti"
            case .germany: "Saksamaa"
            case .unitedKingdom: "Ühendkuningriik"
            case .unitedStates: "Ameerika Ühendriigid"
            }
            return "Sõiduhüvitis (\(name))"
        },
        thisPeriod: "See periood",
        unconfirmedRates: { through in
            (through.map { "Määrad on kinnitatud ainult kuni \($0)" } ?? "Ühtegi nende määrade päeva pole kinnitatud")
                + ": hilisemad summad on viimase teadaoleva määra järgi, mis võib olla muutunud."
        },
        taxYearSpan: { "maksuaasta \($0) kuni \($1)" },
        countedOver: { country in
            "arvestatud ainult selle päeviku järgi: " + (country == .estonia ? "seadus arvestab piirmäära tööandja kohta"
                                                          : "HMRC arvestab inimese kõiki ametimiile kõigis tema autodes")
        },
        ruleWords: { rate, unit, reduced, cap, from, source in
            var text = "\(rate)/\(unit)"
            if let reduced { text += " (\(reduced.rate) pärast \(reduced.threshold) \(unit) maksuaastas)" }
            if let cap { text += ", kuni \(cap) kuus" }
            guard let from else { return text + " (profiili oma määr, näiteks tööandja oma: trackctl profile set --rate)" }
            return text + " alates \(from) (\(source))"
        },
        yearTitle: { "Maksuaasta \($0) kuni \($1)" },
        yearIntroduction: "Tuludeklaratsiooni jaoks vajalikud arvud maksuaasta esimesest päevast kuni selle viimase päevani selles perioodis.",
        businessShare: "Ametisõitude osa", amount: "Hüvitis",
        check: "Kontroll", checkClean: "Midagi, mida maksuamet küsiks, ei leitud", profile: "Profiil", trip: "Sõit",
        fix: "Parandus",
        rules: [.profileDriver: "juht puudub", .profilePlate: "registreerimismärk puudub", .unclassified: "liigitamata", .toConfirm: "kinnitamata",
                .purposeMissing: "eesmärk puudub", .purposeVague: "eesmärk liiga üldine",
                .customerMissing: "klient puudub", .destinationMissing: "sihtkoht puudub",
                .postcodesMissing: "sihtnumbrid puuduvad",
                .notPrompt: "kanne hilines", .odometerGap: "odomeetri vahe", .odometerOverlap: "odomeetri kattumine",
                .rateUnconfirmed: "määr kinnitamata"],
        history: "Muudatuste ajalugu", noChanges: "Muudatusi ei ole",
        historyColumns: ("Aeg", "Kasutaja", "Sõit / objekt", "Väli", "Vana → uus", "Põhjus"),
        historyTrip: { "sõit \($0)" }, clock: { " (kell: \($0))" },
        maps: "Kaardid", noTracks: "Selles perioodis salvestatud marsruute ei ole.",
        trackOf: { "Sõidu \($0) marsruut" },
        chainHead: "Ahela pea", noChainHead: "Päevikul pole veel ahela pead.",
        verify: "Käsk <code>trackctl verify</code> kontrollib, et päevikut pole muudetud.")
}
