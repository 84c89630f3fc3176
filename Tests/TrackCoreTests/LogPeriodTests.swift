import Foundation
import Testing
@testable import TrackCore

@Suite("Periods of the log: weeks from Monday, months, ranges")
struct LogPeriodTests {
    /// Sunday 22 November 2026.
    let today = CivilDate(year: 2026, month: 11, day: 22)!

    @Test func weeksRunMondayToSunday() {
        #expect(today.weekdayFromMonday == 6)
        let this = LogPeriod.thisWeek.dates(today: today)
        #expect(this?.from == CivilDate(year: 2026, month: 11, day: 16))
        #expect(this?.until == CivilDate(year: 2026, month: 11, day: 23))
        let last = LogPeriod.lastWeek.dates(today: today)
        #expect(last?.from == CivilDate(year: 2026, month: 11, day: 9))
        #expect(last?.until == CivilDate(year: 2026, month: 11, day: 16))
        #expect(LogPeriod.thisWeek.title(today: today) == "week 47 of 2026 (2026-11-16 to 2026-11-22)")
    }

    @Test func monthsIncludingJanuaryAndLeapFebruary() {
        #expect(LogPeriod.thisMonth.dates(today: today)! == (CivilDate(year: 2026, month: 11, day: 1)!, CivilDate(year: 2026, month: 12, day: 1)!))
        let january = CivilDate(year: 2028, month: 1, day: 15)!
        #expect(LogPeriod.lastMonth.dates(today: january)! == (CivilDate(year: 2027, month: 12, day: 1)!, CivilDate(year: 2028, month: 1, day: 1)!))
        #expect(LogPeriod.month(year: 2028, month: 2).dates(today: today)!.until == CivilDate(year: 2028, month: 3, day: 1))
        #expect(LogPeriod.month(year: 2026, month: 12).dates(today: today)!.until == CivilDate(year: 2027, month: 1, day: 1))
        #expect(LogPeriod.lastMonth.title(today: today) == "October 2026")
    }

    @Test func isoWeekNumbersAtTheTurnOfTheYear() {
        #expect(CivilDate(year: 2026, month: 12, day: 31)!.isoWeek == (2026, 53))
        #expect(CivilDate(year: 2027, month: 1, day: 3)!.isoWeek == (2026, 53))
        #expect(CivilDate(year: 2027, month: 1, day: 4)!.isoWeek == (2027, 1))
        #expect(CivilDate(year: 2024, month: 12, day: 30)!.isoWeek == (2025, 1))
    }

    @Test func rangesIncludeBothDays() throws {
        let range = try LogPeriod.days(from: "2026-11-01", to: "2026-11-15")
        #expect(range.dates(today: today)! == (CivilDate(year: 2026, month: 11, day: 1)!, CivilDate(year: 2026, month: 11, day: 16)!))
        #expect(LogPeriod.all.dates(today: today) == nil)
    }

    @Test func badPeriodsSayWhatIsExpected() {
        #expect { try LogPeriod.month(parsing: "2026-13") } throws: { "\($0)" == "'2026-13' is not a month: write YYYY-MM, such as 2026-11" }
        #expect { try LogPeriod.month(parsing: "November") } throws: { "\($0)".contains("not a month") }
        #expect { try LogPeriod.days(from: "2026-02-30", to: "2026-03-01") } throws: { "\($0)".contains("'2026-02-30' is not a date") }
        #expect { try LogPeriod.days(from: "2026-11-15", to: "2026-11-01") } throws: { "\($0)".contains("runs backwards") }
        #expect(throws: LogPeriodError.self) { try LogPeriod(parsing: "yesterday") }
    }

    @Test func theTextFormRoundTrips() throws {
        let periods: [LogPeriod] = [.thisWeek, .lastWeek, .thisMonth, .lastMonth, .month(year: 2026, month: 3),
                                    .days(from: CivilDate(year: 2026, month: 1, day: 2)!, to: CivilDate(year: 2026, month: 2, day: 3)!), .all]
        for period in periods {
            #expect(try LogPeriod(parsing: period.description) == period)
            let json = try JSONEncoder().encode([period])
            #expect(try JSONDecoder().decode([LogPeriod].self, from: json) == [period])
        }
    }
}
