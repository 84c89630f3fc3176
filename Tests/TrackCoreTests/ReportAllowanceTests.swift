import TestSupport
import Testing
@testable import TrackCore

/// A report's allowance over a period that touches more than one tax year: every trip paid by its own year's rules,
/// each year's total apart and the period's.
struct ReportAllowanceTests {
    /// The rates the package ships (etc/rates.conf).
    let rates: RateTable

    init() throws {
        rates = try ShippedRates.table()
    }

    private func allowance(_ country: Country, _ rows: [(String, Int64)], from: String, through: String) -> ReportAllowance {
        ReportAllowance(MileageAllowance(country: country, trips: allowanceTrips(rows), rates: rates), from: day(from), through: day(through))
    }

    @Test func aUKAprilTouchesTwoTaxYearsAndEachTripIsPaidAndTotalledInItsOwn() {
        // 9,995.0 miles in 2025-26 before April; 3 April 2026 is still 2025-26 (5.0 miles at the full rate, 5.0
        // past the threshold), 10 April is 2026-27, whose count starts again from nothing.
        let report = allowance(.unitedKingdom, [("2025-05-01", 99_950), ("2026-04-03", 100), ("2026-04-10", 100)],
                               from: "2026-04-01", through: "2026-04-30")
        let full = rates.inForce(for: .unitedKingdom, on: day("2026-04-03"))!
        let next = rates.inForce(for: .unitedKingdom, on: day("2026-04-10"))!
        let third = (50 * full.rate + 50 * full.reducedRate! + 50) / 100
        let tenth = (100 * next.rate + 50) / 100
        #expect(report.amounts.map(\.trip) == [TripID(2), TripID(3)], "only the period's trips")
        #expect(report.amounts.map(\.amount) == [third, tenth])
        #expect(report.amounts.map(\.note) == ["reduced", nil])
        #expect(report.total == third + tenth)
        #expect(report.taxYears == [
            ReportAllowance.TaxYear(from: day("2025-04-06"), through: day("2026-04-05"),
                                    total: (99_950 * full.rate + 50) / 100 + third),
            ReportAllowance.TaxYear(from: day("2026-04-06"), through: day("2026-04-30"), total: tenth),
        ])
    }

    @Test func aWeekAcrossNewYearTouchesTwoTaxYearsInTheCountriesWhoseYearIsTheCalendars() {
        for country in [Country.estonia, .germany, .unitedStates] {
            let whole = MileageAllowance(country: country, trips: allowanceTrips([("2026-06-01", 1_000), ("2026-12-30", 100),
                                                                          ("2027-01-02", 100)]), rates: rates)
            let paid = whole.lines.compactMap(\.amount)
            #expect(paid.count == 3 && paid.allSatisfy { $0 > 0 }, "\(country): \(whole.lines)")
            let report = ReportAllowance(whole, from: day("2026-12-28"), through: day("2027-01-03"))
            #expect(report.amounts.map(\.amount) == [paid[1], paid[2]], "\(country)")
            #expect(report.taxYears.map(\.from) == [day("2026-01-01"), day("2027-01-01")], "\(country)")
            #expect(report.taxYears.map(\.through) == [day("2026-12-31"), day("2027-01-03")], "\(country)")
            #expect(report.taxYears.map(\.total) == [paid[0] + paid[1], paid[2]], "\(country): June counts in 2026's")
            #expect(report.total == paid[1] + paid[2], "\(country)")
        }
    }

    @Test func aMonthWithinOneTaxYearHasThatYearAlone() {
        let report = allowance(.unitedKingdom, [("2026-05-04", 100)], from: "2026-05-01", through: "2026-05-31")
        #expect(report.taxYears.map(\.from) == [day("2026-04-06")])
        #expect(report.taxYears.map(\.through) == [day("2026-05-31")])
        #expect(report.taxYears.map(\.total) == [report.total])
    }

    @Test func aCountrysTaxYearsAreListedFromTheFirstDaysYearToTheLastDays() {
        #expect(Country.unitedKingdom.taxYears(from: day("2026-04-05"), through: day("2026-04-06"))
                    == [day("2025-04-06"), day("2026-04-06")])
        #expect(Country.unitedKingdom.taxYears(from: day("2024-01-01"), through: day("2026-04-05"))
                    == [day("2023-04-06"), day("2024-04-06"), day("2025-04-06")])
        #expect(Country.germany.taxYears(from: day("2028-02-29"), through: day("2028-02-29")) == [day("2028-01-01")])
        #expect(Country.estonia.taxYears(from: day("2027-01-01"), through: day("2026-12-31")) == [])
        #expect(Country.unitedStates.nextTaxYear(after: day("2026-01-01")) == day("2027-01-01"))
    }
}
