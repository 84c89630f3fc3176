/// A report's allowance: each business trip's amount, the period's total, each tax year's that the period touches (to
/// the period's end, or the year's, whichever comes first), and the rules that made them (`MileageAllowance` over
/// those tax years, cut to the period).
public struct ReportAllowance: Sendable, Hashable, Codable {
    /// One trip's amount.
    public struct Amount: Sendable, Hashable, Codable {
        public var trip: TripID
        /// Minor units; `nil` without a rate on its date.
        public var amount: Int64?
        /// `cap` where the month's cap cut it, `reduced` where the year's threshold did.
        public var note: String?
    }

    public var country: Country
    public var currency: Currency
    public var amounts: [Amount]
    /// The period's total, minor units.
    public var total: Int64
    /// The period's last day (`nil` for a report of the whole log).
    public var through: CivilDate?
    /// Every tax year the period touches, oldest first, each with its total from its first day (empty for a report
    /// of the whole log). A month of April in the UK touches two: 2025-26 to 5 April and 2026-27 from 6 April.
    public var taxYears: [TaxYear]

    /// One tax year's total: the business trips from its first day through `through` (the period's last day, or the
    /// tax year's when the period goes on into the next), minor units.
    public struct TaxYear: Sendable, Hashable, Codable {
        public var from: CivilDate
        public var through: CivilDate
        public var total: Int64
    }

    /// The first day the table has a rate for the country on: trips before it have no amount (`nil` at the profile's
    /// own rate).
    public var tableStart: CivilDate?
    /// The last day the table's rates for the country are known to hold for (`nil`: at the profile's own rate, or a
    /// table that says of no day for the country).
    public var checkedThrough: CivilDate?
    /// Whether the period reaches past `checkedThrough` (or the table confirms no day for the country), so that its
    /// amounts from the day after are at the last rate known, which may since have changed (`false` at the profile's
    /// own rate).
    public var unconfirmed: Bool
    /// The rules in force for the period's trips, as figures (a report words them in its language:
    /// `ReportLabels.ruleText`, `£0.45/mi … from 2011-04-06 (ITEPA 2003 s. 230 …)`).
    public var rates: [Rate]

    /// One rule's figures: the rate and the reduced rate (thousandths of the currency per unit of the country's), the
    /// yearly threshold (units), the monthly cap (minor units), the first day (`nil`: the profile's own rate) and
    /// where it comes from.
    public struct Rate: Sendable, Hashable, Codable {
        public var rate: Int64
        public var reducedRate: Int64?
        public var threshold: Int64?
        public var monthlyCap: Int64?
        public var from: CivilDate?
        public var source: String

        enum CodingKeys: String, CodingKey {
            case rate, threshold, from, source
            case reducedRate = "reduced_rate"
            case monthlyCap = "monthly_cap"
        }
    }

    /// The allowance of the trips dated `from` through `through` (the whole log when `nil`), from `allowance` worked
    /// out over every tax year the period touches, from the first one's first day (`from`'s tax year) to the period's
    /// end.
    public init(_ allowance: MileageAllowance, from: CivilDate?, through: CivilDate?) {
        country = allowance.country
        currency = allowance.country.currency
        let lines = allowance.lines.filter { line in
            (from.map { line.date >= $0 } ?? true) && (through.map { line.date <= $0 } ?? true)
        }
        amounts = lines.map { line in
            Amount(trip: line.trip, amount: line.amount,
                   note: line.capped ? "cap" : line.reducedTenths > 0 ? "reduced" : nil)
        }
        total = lines.reduce(0) { $0 + ($1.amount ?? 0) }
        self.through = through
        let country = allowance.country
        taxYears = through.map { through in
            country.taxYears(from: from ?? through, through: through).map { year in
                let last = min(through, country.nextTaxYear(after: year).previous)
                return TaxYear(from: year, through: last, total: allowance.total(from: year, through: last))
            }
        } ?? []
        tableStart = allowance.tableStart
        let checked = allowance.checked?.through
        checkedThrough = checked
        switch (allowance.isOwnRate, through ?? allowance.lines.last?.date) {
        case (false, let last?): unconfirmed = checked.map { last > $0 } ?? true
        default: unconfirmed = false
        }
        var rates: [AllowanceRate] = []
        for line in lines { if let rate = line.rate, !rates.contains(rate) { rates.append(rate) } }
        self.rates = rates.map { rate in
            Rate(rate: rate.rate, reducedRate: rate.reducedRate, threshold: rate.threshold, monthlyCap: rate.monthlyCap,
                 from: rate.isOwn ? nil : rate.from, source: rate.source)
        }
    }

    /// `12.34 €` for trip `id`, with `(cap)` or `(reduced)`; `no rate` before the table; `nil` when it is not paid.
    public func text(of id: TripID) -> String? {
        guard let entry = amounts.first(where: { $0.trip == id }) else { return nil }
        guard let amount = entry.amount else { return "no rate" }
        return currency.text(minor: amount) + (entry.note.map { " (\($0))" } ?? "")
    }

    enum CodingKeys: String, CodingKey {
        case country, currency, amounts, total, rates, through, unconfirmed
        case taxYears = "tax_years"
        case checkedThrough = "checked_through"
        case tableStart = "table_start"
    }
}
