extension CheckWords {
    /// Die Befunde auf Deutsch.
    public static let german = CheckWords(
        language: .german,
        whoAsks: { country, what in
            switch country {
            case .germany: "das Finanzamt verlangt \(what) (R 8.1 Abs. 9 Nr. 2 LStR)"
            case .estonia: "Maksu- ja Tolliamet verlangt \(what) (Vabariigi Valitsuse määrus nr 164 § 4)"
            case .unitedKingdom: "HMRC verlangt \(what) (Datum, Reiseziel, Reisezweck und Meilen jeder Dienstfahrt)"
            case .unitedStates: "der IRS verlangt \(what) (Publication 463, Kapitel 5: Recordkeeping)"
            case nil: "ein Finanzamt verlangt \(what)"
            }
        },
        driver: "den Fahrer", plate: "das Kennzeichen des Fahrzeugs", purposeOfEach: "den Reisezweck jeder Dienstfahrt",
        precisePurpose: { "einen genauen Reisezweck (einen Kunden, einen Ort, einen Auftrag), nicht „\($0)“ allein" },
        partnersVisited: "die aufgesuchten Geschäftspartner",
        destinationWithAddress: "das Reiseziel mit Anschrift",
        destinationOfEach: "das Ziel jeder Dienstfahrt",
        noDriver: "im Profil ist kein Fahrer eingetragen", noPlate: "im Profil ist kein Kennzeichen eingetragen",
        nameValue: "NAME", plateValue: "KENNZEICHEN", reasonValue: "…", purposeValue: "wofür",
        whomValue: "wen oder wofür", addressValue: "STRASSE NR., ORT",
        unclassified: "weder dienstlich noch privat",
        unclassifiedWhy: "jede Fahrt im Fahrtenbuch ist entweder dienstlich oder privat; eine nicht zugeordnete gilt als privat",
        orPrivate: "oder",
        toConfirm: { "durch die Regel „\($0)“ zugeordnet, vom Fahrer nicht bestätigt" },
        toConfirmWhy: "der Fahrer steht für jeden Eintrag ein; eine Zuordnung, die niemand bestätigt hat, ist nur eine Vermutung "
            + "der Software",
        toConfirmFix: { "\($0) (oder \($1))" },
        purposeMissing: "Dienstfahrt ohne Reisezweck",
        purposeVague: { "Reisezweck „\($0)“ sagt nicht, wozu die Fahrt diente" },
        customerMissing: "Dienstfahrt ohne aufgesuchten Geschäftspartner",
        addressMissing: "Dienstfahrt ohne Anschrift des Reiseziels",
        destinationMissing: "Dienstfahrt ohne Reiseziel",
        orNamedPlace: "oder ein benannter Ort mit Anschrift",
        postcodes: { start, end in
            start && end ? "Postleitzahlen von Abfahrts- und Ankunftsort"
                : start ? "Postleitzahl des Abfahrtsorts" : "Postleitzahl des Ankunftsorts"
        },
        postcodesMissing: { "Dienstfahrt ohne \($0)" },
        postcodesWhy: "der Leitfaden von HMRC zu Dienstfahrten von Arbeitnehmern verlangt für jede Dienstfahrt die Postleitzahl "
            + "des Abfahrts- und des Ankunftsorts sowie den Anlass der Fahrt",
        postcodesFix: { "\($0) --from ORT --to ORT --reason \"…\", mit Orten, deren Anschrift die Postleitzahl enthält (trackctl "
            + "place add … --address \"…, SW1A 1AA\"; oder --destination mit der Postleitzahl des Ankunftsorts)" },
        late: { fields, days in
            let names = fields?.map { field -> String in
                switch field {
                case "purpose": "Reisezweck"
                case "kind": "Art"
                case "customer": "Geschäftspartner"
                case "destination": "Reiseziel"
                case "detour": "Umweg"
                case "start_place": "Abfahrtsort"
                case "end_place": "Ankunftsort"
                case "commute": "Wohnung–Arbeitsstätte"
                case "confirmed": "Bestätigung"
                default: field
                }
            }
            return (names.map { "geändert (\($0.joined(separator: ", ")))" } ?? "nachgetragen") + " \(days) Tage nach der Fahrt"
        },
        lateWhy: { "das Finanzamt erkennt ein Fahrtenbuch nur an, wenn es zeitnah geführt wird (BFH VI R 64/04); Einträge mehr "
            + "als \($0) Tage nach der Fahrt können dazu führen, dass es das gesamte Fahrtenbuch verwirft" },
        lateFix: { "lässt sich nicht mehr heilen: Einträge und Änderungen innerhalb von \($0) Tagen nach der Fahrt vornehmen" },
        ends: { "Fahrt \($0) endet bei \($1), Fahrt \($2) beginnt bei \($3)" },
        gap: { "davor fehlen \($0): \($1)" },
        gapWhy: "aufeinanderfolgende Einträge müssen lückenlos anschließen: der km-Stand am Ende des einen ist der Beginn "
            + "des nächsten",
        gapFix: { "trackctl add --distance \($0) --private|--business … für die Strecke dazwischen, oder trackctl odometer set "
            + "mit dem am Tacho abgelesenen km-Stand" },
        overlap: { "\($0) doppelt gezählt: \($1)" },
        overlapWhy: "aufeinanderfolgende Einträge müssen lückenlos anschließen: ein Eintrag kann nicht unter dem km-Stand "
            + "am Ende des vorigen beginnen",
        overlapFix: { "trackctl edit \($0) (oder Fahrt \($1)) mit dem richtigen km-Stand, oder den doppelt gezählten Eintrag "
            + "löschen" },
        rateUnconfirmed: { count, country, through in
            (count == 1 ? "1 Dienstfahrt" : "\(count) Dienstfahrten") + " zum letzten bekannten Satz bezahlt: "
                + (through.map { "die Sätze für \(country.rawValue) gelten nur bekanntermaßen bis \($0)" }
                   ?? "die Satztabelle bestätigt keinen Tag der Sätze für \(country.rawValue)")
        },
        rateWhy: { country in
            "eine Erstattung ist nur zu dem Satz steuerfrei, der am Tag der Fahrt galt, und "
                + "\(country == .unitedKingdom ? "HMRC" : country == .unitedStates ? "der IRS" : "der Gesetzgeber") "
                + "kann seither einen anderen festgesetzt haben"
        },
        rateFix: { "\($0); ein neuer Satz wird mit seiner Quelle in eine Datei in /etc/trackd/rates.d/ eingetragen "
            + "(docs/countries.md, Abschnitt „The allowance“)" },
        trip: { "Fahrt \($0)" }, profile: "Profil", why: "warum", fix: "Abhilfe",
        rules: { country in
            let name = country.map { country in
                switch country {
                case .estonia: "Estland"
                case .germany: "Deutschland"
                case .unitedKingdom: "das Vereinigte Königreich"
                case .unitedStates: "die Vereinigten Staaten"
                }
            }
            return name.map { "den Regeln für \($0) und für jedes Fahrtenbuch" }
                ?? "den Regeln für jedes Fahrtenbuch (kein Land im Profil)"
        },
        nothing: { "nichts zu beanstanden nach \($0)" },
        count: { "\($0) Befund\($0 == 1 ? "" : "e") nach \($1)" })
}
