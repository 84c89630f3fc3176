/// A stretch of days the log is listed or exported for. Days are calendar days in the log's time zone; weeks run
/// Monday to Sunday (ISO 8601).
public enum LogPeriod: Sendable, Hashable, CustomStringConvertible {
    case thisWeek
    case lastWeek
    case thisMonth
    case lastMonth
    /// A calendar month.
    case month(year: Int, month: Int)
    /// From one day to another, both included.
    case days(from: CivilDate, to: CivilDate)
    /// Everything.
    case all

    /// The days covered, as a half-open range of dates (`from` included, `until` excluded), counted from `today`;
    /// `nil` for `.all`.
    public func dates(today: CivilDate) -> (from: CivilDate, until: CivilDate)? {
        switch self {
        case .thisWeek:
            let monday = today.adding(days: -today.weekdayFromMonday)
            return (monday, monday.adding(days: 7))
        case .lastWeek:
            let monday = today.adding(days: -today.weekdayFromMonday - 7)
            return (monday, monday.adding(days: 7))
        case .thisMonth:
            return (today.firstOfMonth, today.firstOfNextMonth)
        case .lastMonth:
            let first = today.firstOfMonth.previous.firstOfMonth
            return (first, today.firstOfMonth)
        case .month(let year, let month):
            guard let first = CivilDate(year: year, month: month, day: 1) else { return nil }
            return (first, first.firstOfNextMonth)
        case .days(let from, let to):
            return (from, to.next)
        case .all:
            return nil
        }
    }

    /// A title for reports: `November 2026`, `week 47 of 2026`, `2026-11-01 to 2026-11-15`, `all trips`.
    public func title(today: CivilDate) -> String {
        switch self {
        case .thisWeek, .lastWeek:
            guard let range = dates(today: today) else { return description }
            let week = range.from.isoWeek
            return "week \(week.week) of \(week.year) (\(range.from) to \(range.until.previous))"
        case .thisMonth, .lastMonth, .month:
            guard let range = dates(today: today) else { return description }
            return "\(LogPeriod.monthNames[range.from.month - 1]) \(range.from.year)"
        case .days(let from, let to):
            return from == to ? "\(from)" : "\(from) to \(to)"
        case .all:
            return "all trips"
        }
    }

    /// `this-week`, `2026-11`, `2026-11-01..2026-11-15`, `all`.
    public var description: String {
        switch self {
        case .thisWeek: "this-week"
        case .lastWeek: "last-week"
        case .thisMonth: "this-month"
        case .lastMonth: "last-month"
        case .month(let year, let month): zeroPadded(year, 4) + "-" + zeroPadded(month, 2)
        case .days(let from, let to): "\(from)..\(to)"
        case .all: "all"
        }
    }

    /// Parses `--month` text: `YYYY-MM`.
    public static func month(parsing text: String) throws(LogPeriodError) -> LogPeriod {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month), year >= 1
        else { throw .badMonth(text) }
        return .month(year: year, month: month)
    }

    /// Parses `--from`/`--to` days: `YYYY-MM-DD` each, `from` not after `to`.
    public static func days(from: String, to: String) throws(LogPeriodError) -> LogPeriod {
        guard let start = CivilDate(iso8601: from) else { throw .badDate(from) }
        guard let end = CivilDate(iso8601: to) else { throw .badDate(to) }
        guard start <= end else { throw .reversed(from: start, to: end) }
        return .days(from: start, to: end)
    }

    /// Parses the text `description` gives back (`this-week`, `2026-11`, `2026-11-01..2026-11-15`, `all`).
    public init(parsing text: String) throws(LogPeriodError) {
        switch text {
        case "this-week": self = .thisWeek
        case "last-week": self = .lastWeek
        case "this-month": self = .thisMonth
        case "last-month": self = .lastMonth
        case "all": self = .all
        default:
            let halves = text.split(separator: ".", omittingEmptySubsequences: true)
            if halves.count == 2, text.contains("..") {
                self = try LogPeriod.days(from: String(halves[0]), to: String(halves[1]))
            } else if text.count == 7 {
                self = try LogPeriod.month(parsing: text)
            } else {
                throw .incomplete("'\(text)' is not a period: this-week, last-week, this-month, last-month, YYYY-MM, "
                                  + "YYYY-MM-DD..YYYY-MM-DD or all")
            }
        }
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                             "September", "October", "November", "December"]
}

/// A period that does not parse.
public enum LogPeriodError: Error, Sendable, Hashable, CustomStringConvertible {
    case badMonth(String)
    case badDate(String)
    case reversed(from: CivilDate, to: CivilDate)
    case incomplete(String)

    public var description: String {
        switch self {
        case .badMonth(let text): "'\(text)' is not a month: write YYYY-MM, such as 2026-11"
        case .badDate(let text): "'\(text)' is not a date: write YYYY-MM-DD, such as 2026-11-22"
        case .reversed(let from, let to): "the period runs backwards: --from \(from) is after --to \(to)"
        case .incomplete(let detail): detail
        }
    }
}

/// A zero-padded decimal.
func zeroPadded(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
}

extension LogPeriod: Codable {
    /// Decodes the text form (`2026-11`, `this-week`…).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        let parsed: LogPeriod
        do {
            parsed = try LogPeriod(parsing: text)
        } catch let failure {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: failure.description)
        }
        self = parsed
    }

    /// Encodes the text form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
