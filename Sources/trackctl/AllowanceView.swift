import TrackCore

/// A country's mileage allowance as `trackctl trips` shows it: each business trip's amount, the period's and the
/// tax year's to the period's end, and the rules that made them.
struct AllowanceView {
    let country: Country
    /// Over the tax year up to the period's end (or the whole log), so that a threshold counts every trip before.
    let allowance: MileageAllowance
    /// The period's first and last day; `nil`: the whole log.
    let period: (from: CivilDate, through: CivilDate)?

    /// `12.34 €`, with `(cap)` where the month's cap cut it and `(reduced)` where the threshold did; `no rate` for a
    /// trip before the table; empty for a trip that is not paid (private, unclassified, deleted, open).
    func amount(of id: TripID) -> String {
        guard let line = allowance.line(of: id) else { return "" }
        guard let amount = line.amount else { return "no rate" }
        var text = country.currency.text(minor: amount)
        if line.capped { text += " (cap)" } else if line.reducedTenths > 0 { text += " (reduced)" }
        return text
    }

    /// The totals and the rules, a line each.
    var summary: [String] {
        let currency = country.currency
        let lines = period.map { period in allowance.lines.filter { $0.date >= period.from && $0.date <= period.through } }
            ?? allowance.lines
        var text: [String]
        if let period {
            let year = country.taxYear(of: period.through)
            text = ["allowance (\(country.rawValue)): \(currency.text(minor: allowance.total(from: period.from, through: period.through))) "
                    + "· tax year from \(year) to \(period.through): \(currency.text(minor: allowance.total(from: year, through: period.through)))"]
        } else {
            let all = allowance.lines.reduce(0) { $0 + ($1.amount ?? 0) }
            text = ["allowance (\(country.rawValue)): \(currency.text(minor: all))"]
        }
        var rates: [AllowanceRate] = []
        for line in lines { if let rate = line.rate, !rates.contains(rate) { rates.append(rate) } }
        for rate in rates { text.append("  \(rate.summary) from \(rate.from) (\(rate.source))") }
        if lines.contains(where: { $0.amount == nil }),
           let first = AllowanceRate.table.first(where: { $0.country == country }) {
            text.append("  no rate before \(first.from): trips before it have no amount")
        }
        return text
    }
}
