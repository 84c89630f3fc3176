import TrackCore

extension MailLabels {
    /// The mail in English.
    public static let english = MailLabels(
        subject: { "Mileage log \($0)" },
        attached: { "The mileage log of \($0) (\($1)) is attached: \($2) for a spreadsheet, \($3) to print." },
        business: "Business", private: "Private", commute: "Commute", unclassified: "Unclassified", total: "Total",
        allowance: { "Allowance (\($0)): \($1)" },
        taxYear: { "; tax year from \($0) to \($1): \($2)" },
        checkClean: "trackctl check: nothing to question.",
        checkFound: { "trackctl check: \($0) finding\($0 == 1 ? "" : "s") a tax office would question (listed in the report):" },
        chainHead: { "Chain head when the report was made: \($0)" },
        verify: "(`trackctl verify` checks the log against it.)",
        noChain: "The log had no hash chain yet when the report was made.",
        madeBy: { "Made by \($0) at \($1)." })
}
