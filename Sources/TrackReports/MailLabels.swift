import TrackCore

/// Every word of the monthly mail's subject and text in one language (`english`, `german`, `estonian`): the mail is
/// in the profile's language (`LogProfile.spokenLanguage`); its attachments keep the report's.
public struct MailLabels: Sendable, LanguageTable {
    /// `Mileage log November 2026`.
    public var subject: @Sendable (_ period: String) -> String
    /// The first sentence: the period's title and name, the CSV and the HTML file.
    public var attached: @Sendable (_ title: String, _ period: String, _ csv: String, _ html: String) -> String
    /// The summary's labels: the kinds, `commute`, and the total.
    public var business: String
    public var `private`: String
    public var commute: String
    public var unclassified: String
    public var total: String
    /// `Allowance (EE): 372.00 €`, then `; tax year from … to …: …` for each tax year.
    public var allowance: @Sendable (_ country: String, _ amount: String) -> String
    public var taxYear: @Sendable (_ from: CivilDate, _ through: CivilDate, _ amount: String) -> String
    public var checkClean: String
    /// `trackctl check: 2 findings a tax office would question (listed in the report):`.
    public var checkFound: @Sendable (_ count: Int) -> String
    public var chainHead: @Sendable (_ head: String) -> String
    public var verify: String
    public var noChain: String
    public var madeBy: @Sendable (_ generator: String, _ time: String) -> String
}
