/// The figures a tax return asks for, from the tax year's first day to a report's last: the distances by kind, the
/// business share and the allowance. Tenths of the profile's unit, added from the rounded figures each row prints
/// (`MileageReport.Totals`), so that the summary and the months' tables agree.
public struct YearSummary: Sendable, Hashable, Codable {
    /// The tax year's first day and the last day counted (the report's last).
    public var from: CivilDate
    public var through: CivilDate
    /// The distances by kind and the number of trips that count.
    public var totals: MileageReport.Totals
    /// The allowance of the year's business trips up to `through`, minor units (`nil` without a country's rates).
    public var amount: Int64?

    public init(from: CivilDate, through: CivilDate, totals: MileageReport.Totals, amount: Int64?) {
        self.from = from
        self.through = through
        self.totals = totals
        self.amount = amount
    }

    /// The trips of `entries` dated `from` through `through` (a tax year's, in the log's order) in tenths of `unit`.
    public init(entries: [LogTrip], from: CivilDate, through: CivilDate, unit: DistanceUnit, amount: Int64?) {
        let dated = entries.filter { trip in trip.date.map { $0 >= from && $0 <= through } ?? false }
        self.init(from: from, through: through, totals: MileageReport.Totals(dated, unit: unit), amount: amount)
    }

    /// The business share in tenths of a percent (`625`: 62.5 %), rounded half up; `nil` when nothing was driven.
    public var businessShare: Int64? {
        let all = totals.all
        guard all > 0 else { return nil }
        return (totals.business * 2000 + all) / (2 * all)
    }

    /// `62.5 %`, or `—` when nothing was driven.
    public var businessShareText: String {
        businessShare.map { "\(DistanceUnit.text(tenths: $0)) %" } ?? "—"
    }

    enum CodingKeys: String, CodingKey {
        case from, through, totals, amount
    }
}
