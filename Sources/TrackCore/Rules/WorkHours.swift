/// The days and hours of a time rule, in the log's time zone: `Mon–Fri 08:00–18:00`.
public struct WorkHours: Sendable, Hashable, Codable {
    /// The days, 1 (Monday) to 7 (Sunday) as ISO 8601 numbers them, in order, without repeats.
    public var days: [Int]
    /// Minutes after midnight the hours begin and end (`end` after `start`; 1440 is midnight at the day's end).
    public var start: Int
    public var end: Int

    public init(days: [Int], start: Int, end: Int) {
        self.days = Array(Set(days)).sorted()
        self.start = start
        self.end = end
    }

    /// Why these hours cannot be a rule's, or `nil` when they can.
    public var problem: String? {
        if days.isEmpty { return "a time rule needs at least one day" }
        if days.contains(where: { !(1...7).contains($0) }) { return "days are 1 (Monday) to 7 (Sunday)" }
        if !(0...1439).contains(start) || !(1...1440).contains(end) { return "hours are from 00:00 to 24:00" }
        if end <= start { return "the hours must end after they begin (\(Self.clock(start)) to \(Self.clock(end)))" }
        return nil
    }

    /// Whether a trip from `start` to `end` (wall-clock times in the log's zone, written as UTC) lies wholly within
    /// the hours of one of the days.
    public func holds(from start: UTCTime, to end: UTCTime) -> Bool {
        guard start.date == end.date, days.contains(start.date.weekdayFromMonday + 1) else { return false }
        let from = start.nanosecondOfDay / UTCTime.nanosecondsPerSecond
        let to = (end.nanosecondOfDay + UTCTime.nanosecondsPerSecond - 1) / UTCTime.nanosecondsPerSecond
        return from >= Int64(self.start) * 60 && to <= Int64(self.end) * 60
    }

    /// Whether any moment of a trip from `start` to `end` (wall-clock times, written as UTC) falls within the hours.
    public func touches(from start: UTCTime, to end: UTCTime) -> Bool {
        var day = start.date
        while day <= end.date {
            if days.contains(day.weekdayFromMonday + 1) {
                let opens = UTCTime(date: day, nanosecondOfDay: Int64(self.start) * 60 * UTCTime.nanosecondsPerSecond)
                let closes = UTCTime(date: day, nanosecondOfDay: Int64(self.end) * 60 * UTCTime.nanosecondsPerSecond)
                if start < closes && opens <= end { return true }
            }
            day = day.adding(days: 1)
        }
        return false
    }

    /// `Mon–Fri 08:00–18:00`, `Mon, Wed 07:30–12:00`.
    public var text: String {
        "\(Self.daysText(days)) \(Self.clock(start))–\(Self.clock(end))"
    }

    /// The days as a person reads them: runs of three or more as `Mon–Fri`, others listed; `names` are Monday's to
    /// Sunday's.
    public static func daysText(_ days: [Int], names: [String] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]) -> String {
        var parts: [String] = []
        var index = 0
        let sorted = Array(Set(days)).sorted().filter { (1...7).contains($0) }
        while index < sorted.count {
            var last = index
            while last + 1 < sorted.count && sorted[last + 1] == sorted[last] + 1 { last += 1 }
            if last - index >= 2 {
                parts.append("\(names[sorted[index] - 1])–\(names[sorted[last] - 1])")
            } else {
                parts.append(contentsOf: sorted[index...last].map { names[$0 - 1] })
            }
            index = last + 1
        }
        return parts.joined(separator: ", ")
    }

    /// `08:00` from 480 minutes.
    public static func clock(_ minutes: Int) -> String {
        let hours = minutes / 60, rest = minutes % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }

    /// Minutes after midnight from `8:00`, `08:00` or `24:00`; `nil` for anything else.
    public static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let hours = Int(parts[0]), let minutes = Int(parts[1]), minutes < 60, hours < 24 || (hours == 24 && minutes == 0)
        else { return nil }
        return hours * 60 + minutes
    }

    /// Days from `mon-fri`, `mon,wed,fri`, `sat-sun` or `1-5` (ISO numbers); `nil` for anything else.
    public static func days(_ text: String) -> [Int]? {
        let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
        func day(_ part: Substring) -> Int? {
            let word = String(part).trimmed.lowercased()
            if let number = Int(word), (1...7).contains(number) { return number }
            guard word.count >= 3, let index = names.firstIndex(where: { $0.hasPrefix(word) }) else { return nil }
            return index + 1
        }
        var result: Set<Int> = []
        for item in text.split(separator: ",") {
            let range = item.split(separator: "-", omittingEmptySubsequences: false)
            switch range.count {
            case 1:
                guard let one = day(range[0]) else { return nil }
                result.insert(one)
            case 2:
                guard let first = day(range[0]), let last = day(range[1]), first <= last else { return nil }
                result.formUnion(first...last)
            default:
                return nil
            }
        }
        return result.isEmpty ? nil : result.sorted()
    }
}
