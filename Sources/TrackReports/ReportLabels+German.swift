import TrackCore

extension ReportLabels {
    /// Das Fahrtenbuch auf Deutsch.
    public static let german = ReportLabels(
        code: "de", decimalSeparator: ",", thousandsSeparator: ".", title: "Fahrtenbuch",
        months: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
                 "November", "Dezember"],
        driver: "Fahrer", plate: "Kennzeichen", company: "Unternehmen",
        car: "Fahrzeug", carOwnership: [.own: "Privatfahrzeug des Fahrers (Reisekosten je km)", .company: "Firmenwagen (keine Kilometerpauschale)"],
        timeZone: "Zeitzone", generated: "Erstellt",
        generatedBy: "Mit", tripsOnly: "Fahrten", only: { "nur \($0)" },
        periodRange: { "(\($0) bis \($1))" },
        trips: "Fahrten",
        columns: [.number: "Nr.", .date: "Datum", .start: "Beginn", .end: "Ende", .odometerStart: "km-Stand Beginn",
                  .odometerEnd: "km-Stand Ende", .distance: "Strecke", .businessDistance: "Dienstlich",
                  .privateDistance: "Privat", .commuteDistance: "Wohnung–Arbeitsstätte", .amount: "Betrag",
                  .kind: "Art", .purpose: "Reisezweck", .whereabouts: "Geschäftspartner / Reiseziel / von → nach",
                  .destination: "Reiseziel mit Anschrift", .customer: "Aufgesuchte Geschäftspartner",
                  .detours: "Umwege", .notes: "Anmerkungen"],
        kinds: [.business: "dienstlich", .private: "privat", .unclassified: "nicht zugeordnet"],
        commute: "Wohnung–Arbeitsstätte",
        noTrips: "Keine Fahrten in diesem Zeitraum.", allTrips: "Alle Fahrten", totalOf: { "Summe \($0)" },
        tripCount: { $0 == 1 ? "1 Fahrt" : "\($0) Fahrten" },
        odometerReadings: "km-Stände",
        sources: [.car: ("F", "aus dem Fahrzeug gelesen (OBD-II)"), .dashboard: ("T", "vom Tacho abgelesen und eingetragen"),
                  .gps: ("G", "mit GPS-Kilometern fortgeschrieben")],
        notes: NoteLabels(
            deleted: { "gelöscht: \($0)" }, deletedWithoutReason: "gelöscht (ohne Grund)",
            purposeMissing: "Reisezweck fehlt", unrecorded: "nicht aufgezeichnet: aus einem km-Stand ermittelt",
            correction: "Korrektur: das Fahrtenbuch lag über dem km-Stand", regular: { "regelmäßige Fahrt „\($0)“" },
            routeWithheld: "Strecke nicht gespeichert (Privatfahrt, Privatmodus)", routeErased: "Strecke gelöscht",
            outages: { "\($0 == 1 ? "1 Empfangslücke" : "\($0) Empfangslücken"), \($1) überbrückt" },
            idleAlerts: { $0 == 1 ? "1 Standzeit-Warnung" : "\($0) Standzeit-Warnungen" },
            cutOffByPowerLoss: "durch Stromausfall unterbrochen, noch nicht wiederhergestellt",
            stillRecorded: "wird noch aufgezeichnet", endedByPowerLoss: "durch Stromausfall beendet",
            endedByShutdown: "beim Herunterfahren beendet", endedOnRestart: "beim Neustart beendet",
            ended: { "beendet: \($0)" }, endsOn: { "endet am \($0)" },
            changed: "nachträglich geändert (siehe Änderungsprotokoll)"),
        allowance: { country in
            let name = switch country {
            case .estonia: "Estland"
            case .germany: "Deutschland"
            case .unitedKingdom: "Vereinigtes Königreich"
            case .unitedStates: "Vereinigte Staaten"
            }
            return "Reisekosten (\(name))"
        },
        thisPeriod: "Dieser Zeitraum",
        unconfirmedRates: { through in
            (through.map { "Die Sätze sind nur bis \($0) bestätigt" } ?? "Kein Tag dieser Sätze ist bestätigt")
                + ": Beträge danach folgen dem letzten bekannten Satz, der sich geändert haben kann."
        },
        taxYearSpan: { "Steuerjahr vom \($0) bis \($1)" },
        countedOver: { country in
            "nur über dieses Fahrtenbuch gezählt: " + (country == .estonia ? "das Gesetz zählt die Obergrenze je Arbeitgeber"
                                                        : "HMRC zählt die dienstlichen Meilen einer Person in all ihren Autos")
        },
        ruleWords: { rate, unit, reduced, cap, from, source in
            var text = "\(rate)/\(unit)"
            if let reduced { text += " (\(reduced.rate) nach \(reduced.threshold) \(unit) im Steuerjahr)" }
            if let cap { text += ", höchstens \(cap) im Monat" }
            guard let from else { return text + " (eigener Satz des Profils, etwa des Arbeitgebers: trackctl profile set --rate)" }
            return text + " ab \(from) (\(source))"
        },
        yearTitle: { "Steuerjahr vom \($0) bis \($1)" },
        yearIntroduction: "Die Angaben für die Steuererklärung, vom ersten Tag des Steuerjahres bis zu seinem letzten Tag in diesem Zeitraum.",
        businessShare: "Anteil dienstlich", amount: "Reisekosten",
        check: "Prüfung", checkClean: "Nichts, was das Finanzamt beanstanden würde", profile: "Profil", trip: "Fahrt",
        fix: "Abhilfe",
        rules: [.profileDriver: "kein Fahrer", .profilePlate: "kein Kennzeichen", .unclassified: "nicht zugeordnet", .toConfirm: "nicht bestätigt",
                .purposeMissing: "Reisezweck fehlt", .purposeVague: "Reisezweck zu ungenau",
                .customerMissing: "Geschäftspartner fehlt", .destinationMissing: "Reiseziel fehlt",
                .postcodesMissing: "Postleitzahlen fehlen",
                .notPrompt: "nicht zeitnah eingetragen", .odometerGap: "Lücke im km-Stand",
                .odometerOverlap: "Überschneidung im km-Stand", .rateUnconfirmed: "Satz nicht bestätigt"],
        history: "Änderungsprotokoll", noChanges: "Keine Änderungen",
        historyColumns: ("Zeit", "Benutzer", "Fahrt / Gegenstand", "Feld", "Alt → neu", "Grund"),
        historyTrip: { "Fahrt \($0)" }, clock: { " (Uhr: \($0))" },
        maps: "Karten", noTracks: "Keine aufgezeichneten Strecken in diesem Zeitraum.",
        trackOf: { "Strecke der Fahrt \($0)" },
        chainHead: "Kettenkopf", noChainHead: "Das Fahrtenbuch hat noch keinen Kettenkopf.",
        verify: "Mit <code>trackctl verify</code> lässt sich prüfen, dass das Fahrtenbuch nicht verändert wurde.")
}
