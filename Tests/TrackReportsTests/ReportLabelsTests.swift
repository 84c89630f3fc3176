import Foundation
import TestSupport
import Testing
import TrackCore
@testable import TrackReports

/// The report's words, one table per language: each complete for the forms that use it.
struct ReportLabelsTests {
    @Test(arguments: [Country.estonia, .germany, .unitedKingdom, .unitedStates])
    func everyColumnOfACountrysFormHasAWordInItsLanguage(country: Country) {
        let form = ReportForm(country: country)
        for column in form.columns {
            // English names the distance's column by its unit alone.
            let label = form.labels.columns[column]
            #expect(label != nil && (label != "" || (column == .distance && form.labels.code == "en")), "\(column)")
        }
        #expect(Set(form.labels.kinds.keys) == Set(TripKind.allCases))
        #expect(Set(form.labels.sources.keys) == Set(OdometerSource.allCases))
        #expect(form.labels.months.count == 12 && Set(form.labels.months).count == 12)
    }

    @Test func theGermanAndEstonianTablesNameEveryRuleCheckApplies() {
        for labels in [ReportLabels.german, .estonian] {
            #expect(Set(labels.rules.keys) == Set(LogFinding.Rule.allCases), "\(labels.code)")
            #expect(Set(labels.sources.values.map(\.letter)).count == OdometerSource.allCases.count, "\(labels.code)")
        }
    }

    @Test func numbersTakeTheLanguagesDecimalSeparator() {
        #expect(ReportLabels.german.number("12345.6") == "12345,6")
        #expect(ReportLabels.estonian.number("0.50 €") == "0,50 €")
        #expect(ReportLabels.english.number("12345.6") == "12345.6")
    }
}

extension ReportLabelsTests {
    /// The allowance of one business trip on `rate`'s first day, by `rate`'s country (or at an own rate).
    private func allowance(on rate: AllowanceRate, own: Int64? = nil) -> ReportAllowance {
        let trip = LogTrip(id: 1, kind: .business, purpose: "Site", source: .manual, state: .closed, distance: 10_000,
                           date: rate.from)
        return ReportAllowance(MileageAllowance(country: rate.country, entries: [trip], rates: RateTable(rates: [rate]), ownRate: own),
                               from: nil, through: nil)
    }

    @Test func theEnglishRuleIsWordedAsTheTableWordsItAndTheOthersInTheirLanguage() throws {
        let table = try ShippedRates.table()
        for rate in table.rates {
            let paid = allowance(on: rate)
            let figures = try #require(paid.rates.first)
            let scope = rate.threshold != nil ? "; counted over this log alone: HMRC counts a person's business miles in all their cars"
                : rate.monthlyCap != nil ? "; counted over this log alone: the law counts the cap per employer" : ""
            #expect(ReportLabels.english.ruleText(figures, of: paid) == "\(rate.summary) from \(rate.from) (\(rate.source))\(scope)",
                    "\(rate)")
            let german = ReportLabels.german.ruleText(figures, of: paid)
            // German words before the source, which is quoted as the table has it.
            let head = german.components(separatedBy: " ab \(rate.from) (\(rate.source))")
            #expect(head.count == 2 && !head[0].contains("at most") && !head[0].contains("past"), "\(german)")
        }
        let uk = allowance(on: try #require(table.first(for: .unitedKingdom)))
        #expect(ReportLabels.german.ruleText(uk.rates[0], of: uk).hasPrefix("£0,45/mi (£0,25 nach 10.000 mi im Steuerjahr) ab"))
        #expect(ReportLabels.estonian.ruleText(uk.rates[0], of: uk).hasPrefix("£0,45/mi (£0,25 pärast 10 000 mi maksuaastas) alates"))
        let own = allowance(on: try #require(table.rates(of: .estonia).last), own: 600)
        #expect(ReportLabels.english.ruleText(own.rates[0], of: own)
                == "0.60 €/km (the profile's own rate: an employer's, trackctl profile set --rate)")
        #expect(ReportLabels.estonian.ruleText(own.rates[0], of: own)
                == "0,60 €/km (profiili oma määr, näiteks tööandja oma: trackctl profile set --rate)")
    }
}
