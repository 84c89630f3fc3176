/// How long the tax office wants the log's entries kept: a number of years after the end of the calendar year of
/// the entry (docs/privacy.md has the table by country and its sources).
public struct RetentionPolicy: Sendable, Hashable, Codable {
    /// Years after the end of the entry's calendar year; 0 keeps nothing past the day of the erasure.
    public var years: Int

    /// The longest period of docs/privacy.md's table (Germany's 10 years), so that no log is erased too soon.
    public static let defaultYears = 10

    public init(years: Int = RetentionPolicy.defaultYears) {
        self.years = years
    }

    /// The last day an entry dated `date` must be kept: 31 December of its year plus `years`.
    public func keptUntil(_ date: CivilDate) -> CivilDate {
        CivilDate(year: min(date.year + years, 9999), month: 12, day: 31)!
    }

    /// Whether an entry dated `date` must still be kept on `today`.
    public func covers(_ date: CivilDate, today: CivilDate) -> Bool {
        today <= keptUntil(date)
    }
}
