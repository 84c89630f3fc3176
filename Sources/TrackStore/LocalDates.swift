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

    /// The wall-clock time of an instant in the zone, written as UTC (08:00 local is 08:00Z).
    static func wallClock(of time: UTCTime, zone identifier: String) -> UTCTime {
        time.adding(seconds: Double(offset(at: time, zone: identifier)))
    }

    /// The instant of a local wall-clock time on a date: the earlier one when the clock repeats an hour, past the
    /// jump by as much as it was into it when the clock skips it (`ZoneRules.unixSeconds(ofLocalSeconds:)`).
    static func instant(_ date: CivilDate, secondOfDay: Int, zone identifier: String) -> UTCTime {
        let naive = UTCTime(date: date, nanosecondOfDay: Int64(secondOfDay) * UTCTime.nanosecondsPerSecond)
        guard let rules = zone(identifier) else { return naive }
        let local = naive.wholeSecondsSinceEpoch
        return naive.adding(seconds: Double(rules.unixSeconds(ofLocalSeconds: local) - local))
    }
}
