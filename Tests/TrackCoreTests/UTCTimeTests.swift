import Testing
@testable import TrackCore

struct UTCTimeTests {
    @Test func formatsISO8601WithMilliseconds() {
        let time = UTCTime(date: CivilDate(year: 2026, month: 11, day: 22)!, nanosecondOfDay: 36_001_250_000_000)
        #expect(time.iso8601() == "2026-11-22T10:00:01.250Z")
        #expect(time.iso8601(fractionDigits: 0) == "2026-11-22T10:00:01Z")
        #expect(time.description == "2026-11-22T10:00:01.250Z")
    }

    @Test func parsesWhatItFormatsAndOffsets() {
        #expect(UTCTime(iso8601: "2026-11-22T10:00:01.250Z")?.iso8601() == "2026-11-22T10:00:01.250Z")
        #expect(UTCTime(iso8601: "2026-11-22T12:00:01+02:00") == UTCTime(iso8601: "2026-11-22T10:00:01Z"))
        #expect(UTCTime(iso8601: "2026-02-30T10:00:00Z") == nil)
        #expect(UTCTime(iso8601: "2026-11-22") == nil)
        #expect(UTCTime(iso8601: "2026-11-22T10:00:01") == nil)
    }

    @Test func convertsCivilDatesBothWaysAcrossCenturiesAndLeapDays() {
        #expect(CivilDate(daysSinceEpoch: 0) == CivilDate(year: 1970, month: 1, day: 1))
        #expect(CivilDate(year: 2000, month: 2, day: 29)?.next == CivilDate(year: 2000, month: 3, day: 1))
        #expect(CivilDate(year: 1900, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2100, month: 3, day: 1)?.previous == CivilDate(year: 2100, month: 2, day: 28))
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            #expect(CivilDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
    }

    @Test func splitsTimesBeforeTheEpochIntoDayAndTimeOfDay() {
        let time = UTCTime(nanosecondsSinceEpoch: -1)
        #expect(time.date == CivilDate(year: 1969, month: 12, day: 31))
        #expect(time.nanosecondOfDay == UTCTime.nanosecondsPerDay - 1)
    }
}
