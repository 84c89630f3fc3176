import TrackCore
import TrackReports
import TrackctlTexts

extension ReportAllowance {
    /// The totals and the rules under `trackctl trips`, a line each, in trackctl's language.
    var lines: [String] {
        let code = country.rawValue
        var total = t("allowance (\(code)): \(amount(total))")
        for year in taxYears {
            total += t(" · tax year from \(year.from) to \(year.through): \(amount(year.total))")
        }
        var lines = [total] + rates.map { "  " + ReportLabels.of(Speech.language).ruleText($0, of: self) }
        if amounts.contains(where: { $0.amount == nil }) {
            lines.append(tableStart.map { t("  no rate before \($0): trips before it have no amount") }
                         ?? t("  no rate for \(code) in the table (trackctl rates): no trip has an amount"))
        }
        if unconfirmed {
            lines.append(checkedThrough.map {
                t("  the rates for \(code) are known only to \($0): amounts after it are at the last rate known, which may have changed (trackctl rates; a new rate goes in /etc/trackd/rates.d)")
            } ?? t("  the table confirms no day of \(code)'s rates: amounts after it are at the last rate known, which may have changed (trackctl rates; a new rate goes in /etc/trackd/rates.d)"))
        }
        return lines
    }

    /// `12.34 €` for trip `id`, with `(cap)` or `(reduced)`; `no rate` before the table; `nil` when it is not paid.
    func amountText(of id: TripID) -> String? {
        guard let entry = amounts.first(where: { $0.trip == id }) else { return nil }
        guard let minor = entry.amount else { return t("no rate") }
        let note = switch entry.note {
        case "cap"?: t(" (cap)")
        case "reduced"?: t(" (reduced)")
        case let other?: " (\(other))"
        case nil: ""
        }
        return amount(minor) + note
    }

    /// An amount as trackctl's language writes it (`12,34 €` in German).
    func amount(_ minor: Int64) -> String {
        Format.figure(currency.text(minor: minor))
    }
}
