/// One line of a rate file (`etc/rates.conf` says the format): a rate from a day on, or the last day a country's
/// rates are known to hold for.
///
///     rate    UK 2026-04-06 0.55 after 10000 0.25 source HMRC approved mileage rates from 6 April 2026
///     rate    EE 2025-01-01 0.50 cap 550.00 source Tulumaksuseadus § 13 lg 3 p 2
///     checked UK 2027-04-05 source HMRC approved mileage rates for the tax year 2026-27
public enum RateFileLine: Sendable, Hashable {
    case rate(AllowanceRate)
    case checked(Country, RateTable.Checked)

    /// Every rate and `checked` line of a file's text; the first wrong line throws, with `file` and its number.
    /// Two rates of one country and first day in one file are an error too (which one would count?).
    public static func parse(_ text: String, file: String) throws(RateFileError) -> [RateFileLine] {
        var lines: [RateFileLine] = []
        var seen: [String: Int] = [:]
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let number = index + 1
            func fail(_ problem: String) -> RateFileError { RateFileError(file: file, line: number, problem: problem) }
            let content = raw.hasSuffix("\r") ? raw.dropLast() : raw[...]
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let keyword = words.first, !keyword.hasPrefix("#") else { continue }
            // The source runs to the end of the line, spaces and all.
            guard let sourceIndex = words.firstIndex(of: "source") else {
                throw fail("no source: every line ends with `source TEXT`, where the rate comes from")
            }
            let source = String(content[words[sourceIndex].endIndex...]).trimmingWhitespace
            guard !source.isEmpty else { throw fail("`source` has no text after it") }
            var fields = words[1..<sourceIndex].map(String.init)
            guard fields.count >= 2 else { throw fail("a country and a day are needed after `\(keyword)`") }
            guard let country = Country(code: fields[0]) else {
                throw fail("'\(fields[0])' is not a country trackd knows the rules of: EE, DE, UK or US")
            }
            guard let day = CivilDate(iso8601: fields[1]) else { throw fail("'\(fields[1])' is not a day (YYYY-MM-DD)") }
            fields.removeFirst(2)
            switch keyword {
            case "checked":
                guard fields.isEmpty else { throw fail("`checked COUNTRY THROUGH source TEXT` takes nothing more: '\(fields[0])'") }
                lines.append(.checked(country, RateTable.Checked(through: day, source: source, origin: "\(file):\(number)")))
            case "rate":
                guard !fields.isEmpty else { throw fail("no rate after the day") }
                let rateText = fields.removeFirst()
                guard let rate = AllowanceRate.thousandths(rateText) else {
                    throw fail("'\(rateText)' is not a rate: a number above 0 and below 10 with at most three decimals, such as 0.55")
                }
                var row = AllowanceRate(country, from: day, rate: rate, source: source)
                row.origin = "\(file):\(number)"
                while let option = fields.first {
                    fields.removeFirst()
                    switch option {
                    case "after":
                        guard fields.count >= 2 else { throw fail("`after` needs the units and the rate past them: after 10000 0.25") }
                        guard row.threshold == nil else { throw fail("`after` given twice") }
                        guard let units = Int64(fields[0]), units > 0, units <= 1_000_000 else {
                            throw fail("'\(fields[0])' is not a number of \(country.unit.rawValue) (a whole number above 0)")
                        }
                        guard let reduced = AllowanceRate.thousandths(fields[1]) else {
                            throw fail("'\(fields[1])' is not a rate: a number above 0 and below 10 with at most three decimals")
                        }
                        row.threshold = units
                        row.reducedRate = reduced
                        fields.removeFirst(2)
                    case "cap":
                        guard let amount = fields.first else { throw fail("`cap` needs the most a month pays: cap 550.00") }
                        guard row.monthlyCap == nil else { throw fail("`cap` given twice") }
                        guard let minor = AllowanceRate.fixedPoint(amount, separator: ".", decimals: 2, wholeDigits: 9) else {
                            throw fail("'\(amount)' is not an amount: a number above 0 with at most two decimals, such as 550.00")
                        }
                        row.monthlyCap = minor
                        fields.removeFirst()
                    default:
                        throw fail("'\(option)' is not known here: after a rate come `after UNITS RATE`, `cap AMOUNT`, then `source TEXT`")
                    }
                }
                let key = "\(country.rawValue) \(day)"
                if let earlier = seen[key] {
                    throw fail("a second rate for \(country.rawValue) from \(day) (the first is on line \(earlier))")
                }
                seen[key] = number
                lines.append(.rate(row))
            default:
                throw fail("'\(keyword)' is not a line trackd knows: a line is `rate …` or `checked …` (etc/rates.conf says how)")
            }
        }
        return lines
    }
}

/// A wrong line in a rate file: the file, the line's number and what is wrong with it.
public struct RateFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var problem: String

    public init(file: String, line: Int, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    /// `/etc/trackd/rates.d/2027.conf:3: '0,55x' is not a rate…`, as compilers say it.
    public var description: String { "\(file):\(line): \(problem)" }
}
