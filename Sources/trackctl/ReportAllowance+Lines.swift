import TrackCore
import TrackReports

extension ReportAllowance {
    /// The totals and the rules under `trackctl trips`, a line each.
    var lines: [String] {
        var total = "allowance (\(country.rawValue)): \(currency.text(minor: total))"
        for year in taxYears {
            total += " · tax year from \(year.from) to \(year.through): \(currency.text(minor: year.total))"
        }
        var lines = [total] + rates.map { "  " + ReportLabels.english.ruleText($0, of: self) }
        if amounts.contains(where: { $0.amount == nil }) {
            lines.append(tableStart.map { "  no rate before \($0): trips before it have no amount" }
                         ?? "  no rate for \(country.rawValue) in the table (trackctl rates): no trip has an amount")
        }
        if unconfirmed {
            lines.append("  " + (checkedThrough.map { "the rates for \(country.rawValue) are known only to \($0)" }
                                 ?? "the table confirms no day of \(country.rawValue)'s rates")
                         + ": amounts after it are at the last rate known, which may have changed "
                         + "(trackctl rates; a new rate goes in /etc/trackd/rates.d)")
        }
        return lines
    }
}
