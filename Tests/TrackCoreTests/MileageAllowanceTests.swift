import Foundation
import TestSupport
import Testing
@testable import TrackCore

/// Each country's allowance worked out by hand for the boundary cases: a cap reached mid-month, a threshold crossed
/// on one trip, a rate that changes between two days, rounding.
struct MileageAllowanceTests {
    /// The rates the package ships (etc/rates.conf).
    let rates: RateTable

    init() throws {
        rates = try ShippedRates.table()
    }

    @Test func estoniasMonthlyCapReachedMidMonthCutsTheTripThatReachesItAndPaysNothingAfter() {
        // 2025: 0.50 €/km, at most 550 € a month. 400 km = 200 €, 500 km = 250 €; 300 km would be 150 € but only
        // 100 € are left; the next trip gets nothing; April starts again.
        let allowance = MileageAllowance(country: .estonia, trips: allowanceTrips([
            ("2025-03-03", 4000), ("2025-03-10", 5000), ("2025-03-17", 3000), ("2025-03-24", 123), ("2025-04-01", 1000),
        ]), rates: rates)
        #expect(allowance.lines.map(\.amount) == [20_000, 25_000, 10_000, 0, 5_000])
        #expect(allowance.lines.map(\.capped) == [false, false, true, true, false])
        #expect(allowance.total(from: day("2025-03-01"), through: day("2025-03-31")) == 55_000)
        #expect(allowance.total(from: day("2025-01-01"), through: day("2025-12-31")) == 60_000, "the year to date")
    }

    @Test func estoniasRateAndCapChangeBetweenTheLastDayOf2024AndTheFirstOf2025() {
        // December 2024: 0.30 €/km, at most 335 € (1,200 km would be 360 €); January 2025: 0.50 €/km.
        let allowance = MileageAllowance(country: .estonia, trips: allowanceTrips([
            ("2024-12-02", 11_000), ("2024-12-31", 1_000), ("2025-01-01", 1_000),
        ]), rates: rates)
        #expect(allowance.lines.map(\.amount) == [33_000, 500, 5_000])
        #expect(allowance.lines.map { $0.rate?.rate } == [300, 300, 500])
        #expect(allowance.lines[1].capped)
        #expect(allowance.total(from: day("2024-12-01"), through: day("2025-01-31")) == 38_500)
    }

    @Test func theUKsTenThousandMilesAreCountedOverTheTaxYearAndTheTripThatCrossesThemIsSplit() {
        // Tax year 2025–26 from 6 April 2025. 9,990.0 miles by 30 November, then 25.0 miles: 10.0 at 45p (4.50 £)
        // and 15.0 at 25p (3.75 £). From 6 April 2026 the full rate again, 55p since that day (HMRC, May 2026).
        let allowance = MileageAllowance(country: .unitedKingdom, trips: allowanceTrips([
            ("2025-04-05", 1_000), ("2025-04-06", 99_900), ("2025-12-01", 250), ("2025-12-02", 100), ("2026-04-06", 100),
        ]), rates: rates)
        let lines = allowance.lines
        #expect(lines[0].amount == 4_500 && lines[0].reducedTenths == 0, "100 miles in the tax year before")
        #expect(lines[1].amount == 449_550, "9,990 × 45p")
        #expect(lines[2].reducedTenths == 150)
        #expect(lines[2].amount == 825)
        #expect(lines[3].amount == 250, "10 miles at 25p")
        #expect(lines[4].amount == 550 && lines[4].reducedTenths == 0)
        #expect(allowance.total(from: day("2025-04-06"), through: day("2026-04-05")) == 449_550 + 825 + 250)
    }

    @Test func theIRSRateChangesMidYearAndAtTheNewYearAndRoundsHalfCentsUpOnceAMonth() {
        let allowance = MileageAllowance(country: .unitedStates, trips: allowanceTrips([
            ("2022-06-30", 1_000), ("2022-07-01", 1_000), ("2025-12-31", 100), ("2026-01-01", 100),
            // 12.3 miles at 72.5¢ = 8.9175 $; 0.1 mile = 7.25¢ twice: 14.5¢ in all, rounded once to 15¢.
            ("2026-02-02", 123), ("2026-03-02", 1), ("2026-03-03", 1),
        ]), rates: rates)
        #expect(allowance.lines.map(\.amount) == [5_850, 6_250, 700, 725, 892, 7, 8])
        #expect(allowance.total(from: day("2026-03-01"), through: day("2026-03-31")) == 15)
    }

    @Test func aTripBeforeTheTableHasNoAmountAndSaysSo() {
        let allowance = MileageAllowance(country: .unitedStates, trips: allowanceTrips([("2020-06-01", 100)]), rates: rates)
        #expect(allowance.lines.first?.amount == nil)
        #expect(allowance.lines.first?.rate == nil)
        // And says so: `no rate` where the amount would be, and the table's first day for the line under the list.
        let report = ReportAllowance(allowance, from: day("2020-06-01"), through: day("2020-06-30"))
        #expect(report.text(of: TripID(1)) == "no rate")
        #expect(report.tableStart == day("2021-01-01"))
        #expect(report.total == 0)
    }

    @Test func germanyPaysThirtyCentsAKilometreWithoutCapOrThreshold() {
        let allowance = MileageAllowance(country: .germany, trips: allowanceTrips([("2026-11-02", 123_456)]), rates: rates)
        #expect(allowance.lines.first?.amount == 370_368, "12,345.6 km × 0.30 € = 3,703.68 €")
    }

    @Test func theTableHasEachCountrysRatesInDateOrderWithTheirSources() {
        for country in Country.allCases {
            let rows = rates.rates(of: country)
            #expect(!rows.isEmpty, "\(country)")
            #expect(rows.map(\.from) == rows.map(\.from).sorted(), "\(country)")
            #expect(rows.allSatisfy { !$0.source.isEmpty })
        }
        #expect(rates.inForce(for: .unitedKingdom, on: day("2026-01-01"))?.summary
                == "£0.45/mi (£0.25 past 10,000 mi a tax year)")
        #expect(rates.inForce(for: .unitedKingdom, on: day("2026-04-06"))?.summary
                == "£0.55/mi (£0.25 past 10,000 mi a tax year)")
        #expect(rates.inForce(for: .estonia, on: day("2026-01-01"))?.summary == "0.50 €/km, at most 550.00 € a month")
        #expect(rates.inForce(for: .unitedStates, on: day("2026-01-01"))?.summary == "$0.725/mi")
    }

    @Test func docsCountriesListsEveryRowOfTheTableWithItsDateAndSource() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/countries.md"), encoding: .utf8)
        for rate in rates.rates {
            #expect(text.contains("| \(rate.country) | \(rate.from) | \(AllowanceRate.rateText(rate.rate, rate.country.currency))/\(rate.country.unit.rawValue) |"),
                    "\(rate.country) from \(rate.from)")
            #expect(text.contains("| \(rate.source) |"), "\(rate.source)")
        }
    }
}
