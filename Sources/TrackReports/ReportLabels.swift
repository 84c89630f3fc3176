import TrackCore

/// Every word the printable report says, in one language: one table per language (`ReportLabels+English` and the
/// others), so that a country in another language is a translation and a line in `ReportLanguage`, not code. The
/// figures' own text (dates in ISO 8601, the allowance's rules with their sources, `trackctl` commands) stays as it
/// is; numbers take the language's decimal separator.
public struct ReportLabels: Sendable, LanguageTable {
    /// The `lang` attribute: `en`, `de`, `et`.
    public var code: String
    /// `.` or `,`.
    public var decimalSeparator: String
    /// Between thousands: `,`, `.`, a space.
    public var thousandsSeparator: String
    /// The report's title: `Mileage log`, `Fahrtenbuch`, `Sõidupäevik`.
    public var title: String
    /// January to December.
    public var months: [String]

    // The header's facts.
    public var driver: String
    public var plate: String
    public var company: String
    /// Whose car, and how each answer is written (`a company car`).
    public var car: String
    public var carOwnership: [CarOwnership: String]
    public var timeZone: String
    public var generated: String
    public var generatedBy: String
    public var tripsOnly: String
    /// `business only`: the report's trips when it has one kind.
    public var only: @Sendable (String) -> String
    /// `(from to through)` after the period's title.
    public var periodRange: @Sendable (CivilDate, CivilDate) -> String

    // The trip table.
    public var trips: String
    public var columns: [ReportColumn: String]
    public var kinds: [TripKind: String]
    /// A private trip between home and work: after the private kind in its row, the Fahrtenbuch's own column.
    public var commute: String
    public var noTrips: String
    public var allTrips: String
    /// `Total business`.
    public var totalOf: @Sendable (String) -> String
    /// `1 trip`, `12 trips`.
    public var tripCount: @Sendable (Int) -> String
    /// `Odometer readings` and, for each source, its letter and what it means.
    public var odometerReadings: String
    public var sources: [OdometerSource: (letter: String, text: String)]

    // The notes beside a trip.
    public var notes: NoteLabels

    // The allowance.
    public var allowance: @Sendable (Country) -> String
    public var thisPeriod: String
    /// The period reaches past the last day the rates are known to hold for (`nil`: no day is).
    public var unconfirmedRates: @Sendable (CivilDate?) -> String
    /// `tax year from 2026-01-01 to 2026-11-30`: a tax year's first day and its last day in the period.
    public var taxYearSpan: @Sendable (CivilDate, CivilDate) -> String
    /// Whom a threshold or a cap is counted for by the tax office, while trackd counts over this log alone: HMRC's
    /// 10,000 miles per person, Estonia's monthly cap per employer.
    public var countedOver: @Sendable (Country) -> String
    /// A rule of the allowance from its figures, already written in the language: the rate (`£0.45`), the unit, the
    /// reduced rate and the threshold it applies past, the monthly cap, the first day (`nil`: the profile's own rate)
    /// and the source.
    public var ruleWords: @Sendable (_ rate: String, _ unit: String, _ reduced: (rate: String, threshold: String)?, _ cap: String?,
                                _ from: CivilDate?, _ source: String) -> String

    // The year's summary.
    public var yearTitle: @Sendable (CivilDate, CivilDate) -> String
    public var yearIntroduction: String
    public var businessShare: String
    public var amount: String

    // The check.
    public var check: String
    public var checkClean: String
    public var profile: String
    public var trip: String
    public var fix: String
    /// Each rule's name, before the finding's own explanation, which stays in English (`LogCheck` words it); none
    /// in English, whose explanation says it.
    public var rules: [LogFinding.Rule: String]

    // The history.
    public var history: String
    public var noChanges: String
    public var historyColumns: (time: String, user: String, subject: String, field: String, change: String, reason: String)
    /// `trip 3` in the history's subject column.
    public var historyTrip: @Sendable (TripID) -> String
    /// ` (system clock)` after a time not taken from GPS.
    public var clock: @Sendable (String) -> String

    // The maps.
    public var maps: String
    public var noTracks: String
    public var trackOf: @Sendable (TripID) -> String

    // The footer.
    public var chainHead: String
    public var noChainHead: String
    public var verify: String

    /// `12.3` with the language's decimal separator.
    public func number(_ text: String) -> String {
        decimalSeparator == "." ? text : text.replacingAll(".", with: decimalSeparator)
    }

    /// A rule of `allowance` in this language: `0,30 €/km ab 2014-01-01 (§ 9 Abs. 1 …)`, `£0.45/mi (£0.25 past 10,000 mi
    /// a tax year) from 2011-04-06 (ITEPA 2003 s. 230 …)`.
    /// A threshold or a cap is followed by whom the tax office counts it for, since trackd counts over this log
    /// alone (`countedOver`).
    public func ruleText(_ rate: ReportAllowance.Rate, of allowance: ReportAllowance) -> String {
        let currency = allowance.currency
        func money(_ thousandths: Int64) -> String { number(AllowanceRate.rateText(thousandths, currency)) }
        let words = ruleWords(money(rate.rate), allowance.country.unit.rawValue,
                              rate.reducedRate.flatMap { reduced in rate.threshold.map { (money(reduced), grouped($0)) } },
                              rate.monthlyCap.map { number(currency.text(minor: $0)) }, rate.from, rate.source)
        guard rate.threshold != nil || rate.monthlyCap != nil else { return words }
        return words + "; " + countedOver(allowance.country)
    }

    /// `10,000` with the language's separator between thousands.
    public func grouped(_ value: Int64) -> String {
        AllowanceRate.grouped(value).replacingAll(",", with: thousandsSeparator)
    }

    /// The period's title: a month's in the language (`November 2026`, `november 2026`), any other as `title`.
    public func periodTitle(_ report: MileageReport) -> String {
        guard let from = report.from, let until = report.until, from.day == 1,
              until == CivilDate(year: from.month == 12 ? from.year + 1 : from.year, month: from.month % 12 + 1, day: 1)
        else { return report.periodTitle }
        return "\(months[from.month - 1]) \(from.year)"
    }
}

/// The notes a report prints beside a trip (`LogTrip.reportNotes`), in one language.
public struct NoteLabels: Sendable {
    public var deleted: @Sendable (String) -> String
    public var deletedWithoutReason: String
    public var purposeMissing: String
    public var unrecorded: String
    public var correction: String
    public var regular: @Sendable (String) -> String
    public var routeWithheld: String
    public var routeErased: String
    /// `2 outages, 1.3 km bridged` from the count and the distance's text with its unit.
    public var outages: @Sendable (Int, String) -> String
    public var idleAlerts: @Sendable (Int) -> String
    public var cutOffByPowerLoss: String
    public var stillRecorded: String
    public var endedByPowerLoss: String
    public var endedByShutdown: String
    public var endedOnRestart: String
    public var ended: @Sendable (String) -> String
    public var endsOn: @Sendable (CivilDate) -> String
    /// A row changed by a person after it was written (the change history says what and why).
    public var changed: String

    /// What a report says in place of a route that is not kept; `nil` for a recorded one.
    public func route(_ route: TripRoute) -> String? {
        switch route {
        case .recorded: nil
        case .withheld: routeWithheld
        case .erased: routeErased
        }
    }
}
