import TrackCore
import TrackZoneInfo

/// Calendar dates and wall-clock times in the log's time zone.
enum LocalDates {
    /// The rules of an IANA zone; `nil` when the system does not know it.
    static func zone(_ identifier: String) -> ZoneRules? {
        ZoneInfo.rules(for: identifier)
    }

    /// Seconds the zone `identifier` is ahead of UTC at `time` (0 for a zone the system does not know).
    private static func offset(at time: UTCTime, zone identifier: String) -> Int {
        zone(identifier)?.offsetSeconds(atUnixSeconds: time.wholeSecondsSinceEpoch) ?? 0
    }

    /// The local calendar date of an instant.
    static func date(of time: UTCTime, zone identifier: String) -> CivilDate {
        time.adding(seconds: Double(offset(at: time, zone: identifier))).date
    }

    /// The instant of a local wall-clock time on a date (the earlier one when the clock repeats an hour).
    static func instant(_ date: CivilDate, secondOfDay: Int, zone identifier: String) -> UTCTime {
        let naive = UTCTime(date: date, nanosecondOfDay: Int64(secondOfDay) * UTCTime.nanosecondsPerSecond)
        // Two passes settle the offset across a change of daylight saving time.
        var offset = offset(at: naive, zone: identifier)
        offset = self.offset(at: naive.adding(seconds: -Double(offset)), zone: identifier)
        return naive.adding(seconds: -Double(offset))
    }
}
