import Testing
import TrackCore

/// The tax year's figures a tax return asks for.
struct YearSummaryTests {
    private func trip(_ id: Int64, _ date: String, _ kind: TripKind, _ metres: Double, state: TripState = .closed) -> LogTrip {
        LogTrip(id: TripID(id), kind: kind, source: .manual, state: state, distance: metres, date: CivilDate(iso8601: date))
    }

    @Test func countsTheYearsTripsByKindAndLeavesOutDeletedOnesAndThoseAfterItsEnd() {
        let entries = [trip(1, "2025-12-31", .business, 50_000), trip(2, "2026-01-02", .business, 12_340),
                       trip(3, "2026-02-10", .private, 7_660), trip(4, "2026-03-01", .business, 99_000, state: .deleted),
                       trip(5, "2026-03-31", .unclassified, 1_000), trip(6, "2026-04-01", .business, 8_000)]
        let year = YearSummary(entries: entries, from: CivilDate(year: 2026, month: 1, day: 1)!,
                               through: CivilDate(year: 2026, month: 3, day: 31)!, unit: .kilometres, amount: 370)
        #expect(year.totals.business == 123 && year.totals.private == 77 && year.totals.unclassified == 10)
        #expect(year.totals.trips == 3)
        // 12.3 of 21.0 km: 58.571… % → 58.6 %.
        #expect(year.businessShare == 586 && year.businessShareText == "58.6 %")
        #expect(year.amount == 370)
    }

    @Test func aShareExactlyHalfWayRoundsUpAndNothingDrivenHasNone() {
        let from = CivilDate(year: 2026, month: 1, day: 1)!
        // 1 of 16 tenths: 6.25 % → 6.3 %.
        let half = YearSummary(entries: [trip(1, "2026-01-05", .business, 100), trip(2, "2026-01-06", .private, 1_500)],
                               from: from, through: from, unit: .kilometres, amount: nil)
        #expect(half.totals.all == 0, "neither is dated on the first day")
        let year = YearSummary(entries: [trip(1, "2026-01-05", .business, 100), trip(2, "2026-01-06", .private, 1_500)],
                               from: from, through: CivilDate(year: 2026, month: 1, day: 31)!, unit: .kilometres, amount: nil)
        #expect(year.businessShare == 63)
        #expect(half.businessShare == nil && half.businessShareText == "—")
    }

    @Test func milesAreCountedAsTheReportPrintsThem() {
        let year = YearSummary(entries: [trip(1, "2026-05-01", .business, 16_093.44)], from: CivilDate(year: 2026, month: 4, day: 6)!,
                               through: CivilDate(year: 2026, month: 5, day: 31)!, unit: .miles, amount: 450)
        #expect(year.totals.business == 100 && year.businessShareText == "100.0 %")
    }
}
