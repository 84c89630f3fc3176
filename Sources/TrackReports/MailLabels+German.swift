import TrackCore

extension MailLabels {
    /// Die Mail auf Deutsch.
    public static let german = MailLabels(
        subject: { "Fahrtenbuch \($0)" },
        attached: { "Anbei das Fahrtenbuch für \($0) (\($1)): \($2) für eine Tabellenkalkulation, \($3) zum Drucken." },
        business: "Dienstlich", private: "Privat", commute: "Wohnung–Arbeitsstätte", unclassified: "Nicht zugeordnet",
        total: "Gesamt",
        allowance: { "Reisekosten (\($0)): \($1)" },
        taxYear: { "; Steuerjahr vom \($0) bis \($1): \($2)" },
        checkClean: "trackctl check: nichts zu beanstanden.",
        checkFound: { "trackctl check: \($0 == 1 ? "1 Befund" : "\($0) Befunde"), die ein Finanzamt beanstanden würde (im Bericht aufgeführt):" },
        chainHead: { "Kettenkopf bei Erstellung des Berichts: \($0)" },
        verify: "(`trackctl verify` prüft das Fahrtenbuch dagegen.)",
        noChain: "Das Fahrtenbuch hatte bei Erstellung des Berichts noch keine Hash-Kette.",
        madeBy: { "Erstellt mit \($0) am \($1)." })
}
