import Testing
@testable import TrackCore

struct PosixZoneRuleTests {
    @Test func readsFixedOffsetsWithAlphabeticAndQuotedNames() throws {
        #expect(try PosixZoneRule(parsing: "<+03>-3") == PosixZoneRule(standardOffsetSeconds: 10800))
        #expect(try PosixZoneRule(parsing: "IST-5:30") == PosixZoneRule(standardOffsetSeconds: 19800))
        #expect(try PosixZoneRule(parsing: "<-0330>3:30") == PosixZoneRule(standardOffsetSeconds: -12600))
        #expect(try PosixZoneRule(parsing: "UTC0") == PosixZoneRule(standardOffsetSeconds: 0))
        #expect(try PosixZoneRule(parsing: "<+0545>-5:45:00").offsetSeconds(atUnixSeconds: 0) == 20700)
    }

    @Test func startsAndEndsDaylightTimeAtTheRulesLocalTimes() throws {
        let berlin = try PosixZoneRule(parsing: "CET-1CEST,M3.5.0,M10.5.0/3")
        #expect(berlin.daylight == .init(offsetSeconds: 7200,
                                         start: .init(day: .monthWeekDay(month: 3, week: 5, weekday: 0)),
                                         end: .init(day: .monthWeekDay(month: 10, week: 5, weekday: 0),
                                                    secondsAfterMidnight: 10800)))
        // 2026: Sunday 29 March and Sunday 25 October, 01:00 UTC.
        expectChange(berlin, at: unix(2026, 3, 29, 1), from: 3600, to: 7200)
        expectChange(berlin, at: unix(2026, 10, 25, 1), from: 7200, to: 3600)
        let tallinn = try PosixZoneRule(parsing: "EET-2EEST,M3.5.0/3,M10.5.0/4")
        expectChange(tallinn, at: unix(2026, 3, 29, 1), from: 7200, to: 10800)
        expectChange(tallinn, at: unix(2026, 10, 25, 1), from: 10800, to: 7200)
        // A month with five Sundays: the fifth is the last (2026-03-29); with four, the fourth (2027-02-28).
        let lastOfFebruary = try PosixZoneRule(parsing: "STD0DST,M2.5.0/0,M11.1.0/0")
        expectChange(lastOfFebruary, at: unix(2027, 2, 28), from: 0, to: 3600)
    }

    @Test func followsSouthernHemisphereRulesWithHalfHourDaylightTime() throws {
        let lordHowe = try PosixZoneRule(parsing: "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")
        #expect(lordHowe.offsetSeconds(atUnixSeconds: unix(2026, 1, 15)) == 39600)
        #expect(lordHowe.offsetSeconds(atUnixSeconds: unix(2026, 7, 15)) == 37800)
        // Sunday 5 April 2026, 02:00 at +11; Sunday 4 October 2026, 02:00 at +10:30.
        expectChange(lordHowe, at: unix(2026, 4, 4, 15), from: 39600, to: 37800)
        expectChange(lordHowe, at: unix(2026, 10, 3, 15, 30), from: 37800, to: 39600)
    }

    @Test func countsJulianDaysWithoutFebruary29AndZeroBasedDaysWithIt() throws {
        // J60 is 1 March in every year; day 59 is 29 February in a leap year and 1 March in another.
        let julian = try PosixZoneRule(parsing: "STD0DST,J60/0,J300/0")
        expectChange(julian, at: unix(2024, 3, 1), from: 0, to: 3600)
        expectChange(julian, at: unix(2025, 3, 1), from: 0, to: 3600)
        let zeroBased = try PosixZoneRule(parsing: "STD0DST,59/0,300/0")
        expectChange(zeroBased, at: unix(2024, 2, 29), from: 0, to: 3600)
        expectChange(zeroBased, at: unix(2025, 3, 1), from: 0, to: 3600)
        // J365 is 31 December even in a leap year; day 365 is 31 December of a leap year only.
        expectChange(try PosixZoneRule(parsing: "STD0DST,J1/0,J365/0"), at: unix(2024, 12, 31) - 3600, from: 3600, to: 0)
        expectChange(try PosixZoneRule(parsing: "STD0DST,0/0,365/0"), at: unix(2024, 12, 31) - 3600, from: 3600, to: 0)
    }

    @Test func acceptsTransitionTimesBeforeMidnightAndPastADay() throws {
        // Nuuk: from the last Saturday of March at 23:00 (-1 on Sunday), to the last Sunday of October at 00:00.
        let nuuk = try PosixZoneRule(parsing: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
        expectChange(nuuk, at: unix(2026, 3, 29, 1), from: -7200, to: -3600)
        expectChange(nuuk, at: unix(2026, 10, 25, 1), from: -3600, to: -7200)
        // Israel: the Friday before the last Sunday of March, 02:00, written as the fourth Thursday at 26:00.
        let israel = try PosixZoneRule(parsing: "IST-2IDT,M3.4.4/26,M10.5.0")
        expectChange(israel, at: unix(2026, 3, 27, 0), from: 7200, to: 10800)
        expectChange(israel, at: unix(2026, 10, 24, 23), from: 10800, to: 7200)
        // Up to 167 hours either way (RFC 8536 §3.3.1): a week after the first Sunday of March.
        let week = try PosixZoneRule(parsing: "STD0DST,M3.1.0/167,M11.1.0/-167")
        expectChange(week, at: unix(2026, 3, 1) + 167 * 3600, from: 0, to: 3600)
    }

    @Test func treatsDaylightTimeFromTheYearsStartToPastItsEndAsAllYear() throws {
        let rule = try PosixZoneRule(parsing: "EST5EDT,0/0,J365/25")
        for time in [unix(2026, 1, 1, 5) - 1, unix(2026, 1, 1, 5), unix(2026, 1, 1, 5) + 1, unix(2026, 6, 30),
                     unix(2024, 12, 31, 12), unix(2025, 1, 1, 4), unix(2025, 1, 1, 5)] {
            #expect(rule.offsetSeconds(atUnixSeconds: time) == -14400, "at \(time)")
        }
    }

    @Test func defaultsToAnHourAheadOnTheUnitedStatesRuleWhenDaylightTimeHasNoDetails() throws {
        let rule = try PosixZoneRule(parsing: "EST5EDT")
        #expect(rule.daylight?.offsetSeconds == -14400)
        // 2026: the second Sunday of March (8th) at 02:00 EST, the first Sunday of November (1st) at 02:00 EDT.
        expectChange(rule, at: unix(2026, 3, 8, 7), from: -18000, to: -14400)
        expectChange(rule, at: unix(2026, 11, 1, 6), from: -14400, to: -18000)
        #expect(try PosixZoneRule(parsing: "AAA-10BBB-12,M10.1.0,M4.1.0/3").daylight?.offsetSeconds == 43200)
    }

    @Test(arguments: ["", "E", "EST", "ES5", "EST+", "EST25", "EST5ED", "EST5EDT,M3.2.0", "EST5EDT,M13.1.0,M11.1.0",
                      "EST5EDT,M3.6.0,M11.1.0", "EST5EDT,M3.2.7,M11.1.0", "EST5EDT,J0,J365", "EST5EDT,366,0",
                      "EST5EDT,M3.2.0/168,M11.1.0", "<+03-3", "<+3>-3", "EST5:60", "EST5 ", "EST5EDT,M3.2.0,M11.1.0x"])
    func refusesMalformedRules(text: String) {
        #expect(throws: ZoneRulesError.self) { try PosixZoneRule(parsing: text) }
    }

    /// The offset is `from` the second before `time` and `to` from `time` on.
    private func expectChange(_ rule: PosixZoneRule, at time: Int64, from: Int, to: Int,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(rule.offsetSeconds(atUnixSeconds: time - 1) == from, sourceLocation: sourceLocation)
        #expect(rule.offsetSeconds(atUnixSeconds: time) == to, sourceLocation: sourceLocation)
    }
}
