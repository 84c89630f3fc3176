extension CivilDate {
    /// Parses `YYYY-MM-DD`; `nil` for anything else or a day that does not exist.
    public init?(iso8601 text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Days after Monday: 0 for Monday … 6 for Sunday (ISO 8601).
    public var weekdayFromMonday: Int {
        // 1970-01-01 was a Thursday.
        Int(((daysSinceEpoch + 3) % 7 + 7) % 7)
    }

    /// The date `days` later (earlier when negative).
    public func adding(days: Int) -> CivilDate {
        CivilDate(daysSinceEpoch: daysSinceEpoch + Int64(days))
    }

    /// The first day of this date's month.
    public var firstOfMonth: CivilDate {
        CivilDate(year: year, month: month, day: 1)!
    }

    /// The first day of the next month.
    public var firstOfNextMonth: CivilDate {
        month == 12 ? CivilDate(year: year + 1, month: 1, day: 1)! : CivilDate(year: year, month: month + 1, day: 1)!
    }

    /// The ISO 8601 week: its year and number (1…53).
    public var isoWeek: (year: Int, week: Int) {
        // The week belongs to the year of its Thursday.
        let thursday = adding(days: 3 - weekdayFromMonday)
        let january1 = CivilDate(year: thursday.year, month: 1, day: 1)!
        let week = Int(thursday.daysSinceEpoch - january1.daysSinceEpoch) / 7 + 1
        return (thursday.year, week)
    }
}

extension Character {
    /// `0`…`9`.
    var isASCIIDigit: Bool { isASCII && isNumber }
}
