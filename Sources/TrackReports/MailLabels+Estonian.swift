import TrackCore

extension MailLabels {
    /// Kiri eesti keeles.
    public static let estonian = MailLabels(
        subject: { "Sõidupäevik \($0)" },
        attached: { "Manuses on sõidupäevik, \($0) (\($1)): \($2) tabelarvutuse jaoks, \($3) printimiseks." },
        business: "Ametisõit", private: "Erasõit", commute: "Kodu–töö", unclassified: "Liigitamata", total: "Kokku",
        allowance: { "Hüvitis (\($0)): \($1)" },
        taxYear: { "; maksuaasta \($0) kuni \($1): \($2)" },
        checkClean: "trackctl check: pole midagi, mida maksuamet võiks küsida.",
        checkFound: { "trackctl check: \($0 == 1 ? "1 leid" : "\($0) leidu"), mida maksuamet võiks küsida (aruandes loetletud):" },
        chainHead: { "Ahela pea aruande koostamise ajal: \($0)" },
        verify: "(`trackctl verify` kontrollib sõidupäevikut selle järgi.)",
        noChain: "Sõidupäevikul polnud aruande koostamise ajal veel räsiahelat.",
        madeBy: { "Koostas \($0), \($1)." })
}
