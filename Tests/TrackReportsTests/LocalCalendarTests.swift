import Foundation
import Testing
import TrackCore
@testable import TrackReports

struct LocalCalendarTests {
    let tallinn = try! LocalCalendar(timeZoneIdentifier: "Europe/Tallinn")
    let utc = try! LocalCalendar(timeZoneIdentifier: "UTC")

    func day(_ text: String) -> CivilDate { CivilDate(iso8601: text)! }

    @Test func tallinnsDayWhenSummerTimeEndsIs25HoursLong() {
        // EEST (+03:00) until 04:00 local on 2026-10-25, then EET (+02:00).
        #expect(tallinn.startOfDay(day("2026-10-25")) == .at("2026-10-24T21:00:00Z"))
        #expect(tallinn.startOfDay(day("2026-10-26")) == .at("2026-10-25T22:00:00Z"))
        let length = tallinn.startOfDay(day("2026-10-26")).seconds(since: tallinn.startOfDay(day("2026-10-25")))
        #expect(length == 25 * 3600)
        #expect(utc.startOfDay(day("2026-10-26")).seconds(since: utc.startOfDay(day("2026-10-25"))) == 24 * 3600)
        // And the day summer time begins has 23 hours.
        let spring = tallinn.startOfDay(day("2026-03-30")).seconds(since: tallinn.startOfDay(day("2026-03-29")))
        #expect(spring == 23 * 3600)
    }

    @Test func theRepeatedHourShowsTheSameClockTimeWithTwoOffsets() {
        let summer = tallinn.localTime(.at("2026-10-25T00:30:00Z"))
        let winter = tallinn.localTime(.at("2026-10-25T01:30:00Z"))
        #expect(summer.timeText == "03:30" && summer.offsetText == "+03:00")
        #expect(winter.timeText == "03:30" && winter.offsetText == "+02:00")
        #expect(summer.date == day("2026-10-25") && winter.date == day("2026-10-25"))
        #expect(winter.description == "2026-10-25 03:30 +02:00")
    }

    @Test func localDatesAndTimesFollowTheZone() {
        let late = UTCTime.at("2026-10-31T22:25:09Z")
        #expect(tallinn.date(of: late) == day("2026-11-01"))
        #expect(utc.date(of: late) == day("2026-10-31"))
        let local = tallinn.localTime(late)
        #expect((local.hour, local.minute, local.second) == (0, 25, 9))
        #expect(local.timeWithSecondsText == "00:25:09")
        #expect(utc.localTime(late).offsetText == "+00:00")
        let newfoundland = try! LocalCalendar(timeZoneIdentifier: "America/St_Johns")
        #expect(newfoundland.localTime(.at("2026-01-15T12:00:00Z")).offsetText == "-03:30")
        #expect(newfoundland.localTime(.at("2026-01-15T12:00:00Z")).timeText == "08:30")
    }

    @Test func monthBoundsAreLocalMidnightsInUTC() throws {
        let october = LogPeriod.month(year: 2026, month: 10)
        let today = day("2026-11-02")
        let local = try #require(tallinn.bounds(of: october, today: today))
        #expect(local.from == .at("2026-09-30T21:00:00Z"))
        #expect(local.until == .at("2026-10-31T22:00:00Z"))
        let plain = try #require(utc.bounds(of: october, today: today))
        #expect(plain.from == .at("2026-10-01T00:00:00Z"))
        #expect(plain.until == .at("2026-11-01T00:00:00Z"))
        #expect(tallinn.bounds(of: .lastMonth, today: today)?.from == local.from)
        #expect(tallinn.bounds(of: .all, today: today) == nil)
        // A trip just before local midnight on the 31st is in October; just after is not.
        #expect(UTCTime.at("2026-10-31T21:59:59Z") < local.until)
        #expect(tallinn.date(of: local.until) == day("2026-11-01"))
    }

    @Test func aDayWhoseMidnightIsSkippedStartsWhenTheClockJumps() {
        // Cuba moves the clock from 00:00 to 01:00 on the second Sunday of March: 2026-03-08 has no midnight.
        let havana = try! LocalCalendar(timeZoneIdentifier: "America/Havana")
        let start = havana.startOfDay(day("2026-03-08"))
        #expect(havana.date(of: start) == day("2026-03-08"))
        #expect(havana.date(of: start.adding(seconds: -1)) == day("2026-03-07"))
        #expect(havana.localTime(start).timeText == "01:00")
        #expect(start == .at("2026-03-08T05:00:00Z"))
    }

    @Test func aCalendarOfRulesReadElsewhereIsTheNamedZones() throws {
        let bytes = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Tallinn"))
        let calendar = LocalCalendar(identifier: "Europe/Tallinn", rules: try ZoneRules(tzif: Array(bytes)))
        #expect(calendar.identifier == "Europe/Tallinn")
        for text in ["2026-03-29T00:59:59Z", "2026-03-29T01:00:00Z", "2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z",
                     "2045-07-01T12:00:00Z", "1991-03-31T00:00:00Z"] {
            #expect(calendar.localTime(.at(text)) == tallinn.localTime(.at(text)), "at \(text)")
        }
        #expect(calendar.startOfDay(day("2026-10-25")) == .at("2026-10-24T21:00:00Z"))
    }

    @Test func anUnknownZoneIsAnErrorThatNamesItAndSaysWhatToWrite() {
        #expect(throws: ReportError.unknownTimeZone("Europe/Talinn")) {
            try LocalCalendar(timeZoneIdentifier: "Europe/Talinn")
        }
        #expect(throws: ReportError.unknownTimeZone("")) {
            try LocalCalendar(timeZoneIdentifier: "")
        }
        let message = ReportError.unknownTimeZone("Europe/Talinn").description
        #expect(message.contains("'Europe/Talinn'") && message.contains("Europe/Tallinn"))
    }
}
