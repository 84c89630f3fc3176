/// A POSIX TZ rule as the footer of a TZif file carries it (RFC 8536 §3.3): a standard offset and, optionally, a
/// daylight-saving offset with the yearly days and times it starts and ends (`EET-2EEST,M3.5.0/3,M10.5.0/4`,
/// `<+03>-3`, `CET-1CEST,M3.5.0,M10.5.0/3`). It gives the offset of an instant after the file's last transition.
///
/// Offsets here are seconds east of UTC (ahead of it), the opposite of the sign POSIX writes (`EET-2` is +7200).
/// A rule whose daylight saving time starts at the beginning of a year and ends after its end (`EST5EDT,0/0,J365/25`)
/// is daylight saving time all year (RFC 8536 §3.3.1).
public struct PosixZoneRule: Sendable, Hashable {
    /// A day of the year on which daylight saving time starts or ends.
    public enum Day: Sendable, Hashable {
        /// `Jn`: the nth day of the year, 1…365, February 29 never counted (`J60` is always March 1).
        case julian(Int)
        /// `n`: the day n days after January 1, 0…365, February 29 counted in leap years.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `weekday` (0 = Sunday) of week `week` (1…5, 5 = the last) of month `month` (1…12).
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    /// When a change happens: a day of the year, and the local time on it, as seconds after that day's midnight in
    /// the time in force before the change (−167 h … 167 h, so a change may fall on a neighbouring day).
    public struct Change: Sendable, Hashable {
        public var day: Day
        public var secondsAfterMidnight: Int

        public init(day: Day, secondsAfterMidnight: Int = 7200) {
            self.day = day
            self.secondsAfterMidnight = secondsAfterMidnight
        }
    }

    /// Daylight saving time: its offset and when it starts and ends each year.
    public struct Daylight: Sendable, Hashable {
        /// Seconds ahead of UTC while it is in force.
        public var offsetSeconds: Int
        public var start: Change
        public var end: Change

        public init(offsetSeconds: Int, start: Change, end: Change) {
            self.offsetSeconds = offsetSeconds
            self.start = start
            self.end = end
        }
    }

    /// Seconds ahead of UTC outside daylight saving time.
    public var standardOffsetSeconds: Int
    /// Daylight saving time; `nil` for a zone without it.
    public var daylight: Daylight?

    public init(standardOffsetSeconds: Int, daylight: Daylight? = nil) {
        self.standardOffsetSeconds = standardOffsetSeconds
        self.daylight = daylight
    }

    /// Seconds the rule's local time is ahead of UTC at `seconds` after the Unix epoch.
    public func offsetSeconds(atUnixSeconds seconds: Int64) -> Int {
        guard let daylight else { return standardOffsetSeconds }
        // The Gregorian calendar repeats every 400 years, weekdays included, and so does the rule: the instant moved
        // into 1970…2369 keeps its offset and stays far from overflow.
        let cycle: Int64 = 146_097 * 86_400
        let remainder = seconds % cycle
        let time = remainder < 0 ? remainder + cycle : remainder
        let year = CivilDate(daysSinceEpoch: (time + Int64(standardOffsetSeconds)).floorDiv(86_400)).year
        // The latest change at or before `time`, among those of the years around it (a change may lie up to a week
        // outside its own year); where an end and a start meet (all-year daylight time), the start wins.
        var latest: (at: Int64, isDaylight: Bool)?
        for candidateYear in (year - 2)...(year + 1) {
            let start = Self.midnight(of: daylight.start.day, in: candidateYear)
                + Int64(daylight.start.secondsAfterMidnight - standardOffsetSeconds)
            let end = Self.midnight(of: daylight.end.day, in: candidateYear)
                + Int64(daylight.end.secondsAfterMidnight - daylight.offsetSeconds)
            for change in [(at: end, isDaylight: false), (at: start, isDaylight: true)] where change.at <= time {
                if let found = latest, found.at > change.at || (found.at == change.at && found.isDaylight) { continue }
                latest = change
            }
        }
        return latest?.isDaylight == true ? daylight.offsetSeconds : standardOffsetSeconds
    }

    /// Seconds from the epoch to the start of `day` of `year`, counted as if local time were UTC.
    static func midnight(of day: Day, in year: Int) -> Int64 {
        let january1 = Self.daysSinceEpoch(year: year, month: 1)
        let days: Int64
        switch day {
        case .julian(let number):
            days = january1 + Int64(number - 1) + (CivilDate.isLeap(year) && number >= 60 ? 1 : 0)
        case .zeroBased(let number):
            days = january1 + Int64(number)
        case .monthWeekDay(let month, let week, let weekday):
            let first = Self.daysSinceEpoch(year: year, month: month)
            // 1970-01-01 was a Thursday (4, counting from Sunday).
            let firstWeekday = Int((first + 4).floorMod(7))
            var day = (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            while day >= CivilDate.daysIn(month: month, year: year) { day -= 7 }
            days = first + Int64(day)
        }
        return days * 86_400
    }

    /// Days from 1970-01-01 to the first of `month` in `year` (any year).
    static func daysSinceEpoch(year: Int, month: Int) -> Int64 {
        // Howard Hinnant's days_from_civil, for the first of the month.
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = Int64(month > 2 ? month - 3 : month + 9)
        let doy = (153 * mp + 2) / 5
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
