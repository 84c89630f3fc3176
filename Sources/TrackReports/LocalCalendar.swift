import TrackCore
import TrackZoneInfo

/// The calendar of the log's time zone: local dates and clock times of UTC instants, and the UTC instants at which
/// local days and periods begin, daylight saving time included.
public struct LocalCalendar: Sendable {
    /// The IANA name of the zone (`Europe/Tallinn`).
    public let identifier: String
    /// The zone's offsets through time.
    public let rules: ZoneRules

    /// The calendar of an IANA time zone, its rules read from the system's zoneinfo folder (`ZoneInfo`); throws
    /// `ReportError.unknownTimeZone` for a name the system does not know.
    public init(timeZoneIdentifier identifier: String) throws(ReportError) {
        guard let rules = ZoneInfo.rules(for: identifier) else { throw .unknownTimeZone(identifier) }
        self.init(identifier: identifier, rules: rules)
    }

    /// The calendar of the zone `identifier` whose rules the caller has read.
    public init(identifier: String, rules: ZoneRules) {
        self.identifier = identifier
        self.rules = rules
    }

    /// The calendar of a profile's time zone.
    public init(profile: LogProfile) throws(ReportError) {
        try self.init(timeZoneIdentifier: profile.timeZone)
    }

    /// Seconds the zone is ahead of UTC at `time`.
    public func offsetSeconds(at time: UTCTime) -> Int {
        rules.offsetSeconds(atUnixSeconds: time.wholeSecondsSinceEpoch)
    }

    /// The local date, clock time and offset of `time`.
    public func localTime(_ time: UTCTime) -> LocalTime {
        let offset = offsetSeconds(at: time)
        let shifted = UTCTime(nanosecondsSinceEpoch: time.nanosecondsSinceEpoch + Int64(offset) * UTCTime.nanosecondsPerSecond)
        let second = Int(shifted.nanosecondOfDay / UTCTime.nanosecondsPerSecond)
        return LocalTime(date: shifted.date, hour: second / 3600, minute: second / 60 % 60, second: second % 60,
                         offsetSeconds: offset)
    }

    /// The local calendar date of `time`.
    public func date(of time: UTCTime) -> CivilDate {
        localTime(time).date
    }

    /// The first instant of the local day `date`: local midnight, or the end of a daylight-saving jump where
    /// midnight is skipped, or the first of two midnights where the clock goes back over it.
    public func startOfDay(_ date: CivilDate) -> UTCTime {
        let midnightAsUTC = UTCTime(date: date, nanosecondOfDay: 0)
        // Local midnight read as every local time is (`ZoneRules.unixSeconds(ofLocalSeconds:)`): past a jump over
        // it, the earlier of two.
        let local = midnightAsUTC.wholeSecondsSinceEpoch
        let candidate = midnightAsUTC.shifted(seconds: Int(rules.unixSeconds(ofLocalSeconds: local) - local))
        if isFirstInstant(candidate, of: date) { return candidate }
        // A transition near midnight: the first whole second whose local date is `date` (offsets change on whole
        // seconds), searched within a day and a half either side.
        var low = midnightAsUTC.shifted(seconds: -36 * 3600)
        var high = midnightAsUTC.shifted(seconds: 36 * 3600)
        while high.nanosecondsSinceEpoch - low.nanosecondsSinceEpoch > UTCTime.nanosecondsPerSecond {
            let middle = UTCTime(nanosecondsSinceEpoch: low.nanosecondsSinceEpoch
                + (high.nanosecondsSinceEpoch - low.nanosecondsSinceEpoch) / 2 / UTCTime.nanosecondsPerSecond
                * UTCTime.nanosecondsPerSecond)
            if self.date(of: middle) >= date { high = middle } else { low = middle }
        }
        return high
    }

    /// The UTC instants that bound `period` in this zone: from the start of its first day to the start of the day
    /// after its last; `nil` for a period without bounds (`.all`).
    public func bounds(of period: LogPeriod, today: CivilDate) -> (from: UTCTime, until: UTCTime)? {
        guard let dates = period.dates(today: today) else { return nil }
        return (startOfDay(dates.from), startOfDay(dates.until))
    }

    /// Whether `time` falls on `date` and the second before it does not.
    private func isFirstInstant(_ time: UTCTime, of date: CivilDate) -> Bool {
        self.date(of: time) == date && self.date(of: time.shifted(seconds: -1)) < date
    }
}
