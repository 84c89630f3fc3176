import TrackCore
import TrackReports

extension ReportAllowance {
    /// The totals and the rules under `trackctl trips`, a line each.
    var lines: [String] {
        var total = "allowance (\(country.rawValue)): \(currency.text(minor: total))"
        if let through, let yearFrom, let yearTotal {
            total += " · tax year from \(yearFrom) to \(through): \(currency.text(minor: yearTotal))"
        }
        var lines = [total] + rates.map { "  " + ReportLabels.english.ruleText($0, of: self) }
        if amounts.contains(where: { $0.amount == nil }),
           let first = AllowanceRate.table.first(where: { $0.country == country }) {
            lines.append("  no rate before \(first.from): trips before it have no amount")
        }
        return lines
    }
}
