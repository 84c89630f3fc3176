import TrackCore

/// An instant as a clock in the log's time zone shows it: the local date, the time of day and the offset from UTC.
public struct LocalTime: Sendable, Hashable, CustomStringConvertible {
    /// The local calendar date.
    public var date: CivilDate
    /// The local hour (0…23).
    public var hour: Int
    /// The local minute (0…59).
    public var minute: Int
    /// The local second (0…59).
    public var second: Int
    /// Seconds the zone is ahead of UTC at that instant (`7200` for +02:00).
    public var offsetSeconds: Int

    /// A local time from its parts.
    public init(date: CivilDate, hour: Int, minute: Int, second: Int, offsetSeconds: Int) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
        self.offsetSeconds = offsetSeconds
    }

    /// `2026-11-22`.
    public var dateText: String { date.description }

    /// `08:05`.
    public var timeText: String { twoDigits(hour) + ":" + twoDigits(minute) }

    /// `08:05:09`.
    public var timeWithSecondsText: String { timeText + ":" + twoDigits(second) }

    /// `+02:00`, `-03:30`, `+00:00`.
    public var offsetText: String {
        let magnitude = abs(offsetSeconds)
        let sign = offsetSeconds < 0 ? "-" : "+"
        return sign + twoDigits(magnitude / 3600) + ":" + twoDigits(magnitude / 60 % 60)
    }

    /// `2026-11-22 08:05 +02:00`.
    public var description: String { "\(dateText) \(timeText) \(offsetText)" }
}

/// A non-negative number with at least two digits.
private func twoDigits(_ value: Int) -> String {
    value < 10 && value >= 0 ? "0\(value)" : String(value)
}
