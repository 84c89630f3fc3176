import Foundation
import TrackCore

/// Calendar dates and wall-clock times in the log's time zone.
enum LocalDates {
    /// The zone for an IANA id; `nil` when the system does not know it.
    static func zone(_ identifier: String) -> TimeZone? {
        TimeZone(identifier: identifier)
    }

    /// The local calendar date of an instant.
    static func date(of time: UTCTime, zone identifier: String) -> CivilDate {
        let zone = TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0)!
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: time.secondsSinceEpoch))
        return time.adding(seconds: Double(offset)).date
    }

    /// The instant of a local wall-clock time on a date (the earlier one when the clock repeats an hour).
    static func instant(_ date: CivilDate, secondOfDay: Int, zone identifier: String) -> UTCTime {
        let zone = TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0)!
        let naive = UTCTime(date: date, nanosecondOfDay: Int64(secondOfDay) * UTCTime.nanosecondsPerSecond)
        // Two passes settle the offset across a change of daylight saving time.
        var offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: naive.secondsSinceEpoch))
        offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: naive.secondsSinceEpoch - Double(offset)))
        return naive.adding(seconds: -Double(offset))
    }
}
