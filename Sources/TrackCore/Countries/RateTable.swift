/// The mileage allowance rates trackd knows: the package's table (`etc/rates.conf`, installed as
/// `/usr/share/trackd/rates.conf`) with the rows a user or an accountant adds in `/etc/trackd/rates.d/`, and how far
/// each country's rates are known to hold. Data, not code: amounts are worked out from it each time they are asked
/// for, so a row added later corrects every period it reaches back to. Pure: the files' texts in, the table out.
public struct RateTable: Sendable, Hashable {
    /// Every rate, by country and then first day.
    public private(set) var rates: [AllowanceRate]
    /// The last day each country's rates are known to hold for.
    public private(set) var checked: [Country: Checked]

    /// The last day a country's rates are known to hold for, the source that says so, and where it was read.
    public struct Checked: Sendable, Hashable {
        public var through: CivilDate
        public var source: String
        public var origin: String?

        public init(through: CivilDate, source: String, origin: String? = nil) {
            self.through = through
            self.source = source
            self.origin = origin
        }
    }

    public init(rates: [AllowanceRate] = [], checked: [Country: Checked] = [:]) {
        self.rates = []
        self.checked = checked
        for rate in rates { add(rate) }
    }

    /// The table from rate files in the order given (the package's, then the user's in name order). A rate for a
    /// country and first day that an earlier file has replaces that one; the latest `checked` day of a country
    /// counts. A file with a wrong line is left out whole (a half-read file would pay some rows and not others) and
    /// its error returned, with the file and the line.
    public static func reading(_ files: [(name: String, text: String)]) -> (table: RateTable, refused: [RateFileError]) {
        var table = RateTable()
        var refused: [RateFileError] = []
        for file in files {
            do {
                let lines = try RateFileLine.parse(file.text, file: file.name)
                for line in lines {
                    switch line {
                    case .rate(let rate): table.add(rate)
                    case .checked(let country, let checked):
                        if let known = table.checked[country], known.through > checked.through { continue }
                        table.checked[country] = checked
                    }
                }
            } catch {
                refused.append(error)
            }
        }
        return (table, refused)
    }

    /// Adds `rate`, replacing one of the same country and first day.
    public mutating func add(_ rate: AllowanceRate) {
        rates.removeAll { $0.country == rate.country && $0.from == rate.from }
        let index = rates.firstIndex { ($0.country.rawValue, $0.from) > (rate.country.rawValue, rate.from) } ?? rates.endIndex
        rates.insert(rate, at: index)
    }

    /// The rate in force for `country` on `date`, or `nil` before the table's first for it.
    public func inForce(for country: Country, on date: CivilDate) -> AllowanceRate? {
        rates.last { $0.country == country && $0.from <= date }
    }

    /// The first rate the table has for `country`.
    public func first(for country: Country) -> AllowanceRate? {
        rates.first { $0.country == country }
    }

    /// The rates of `country`, oldest first.
    public func rates(of country: Country) -> [AllowanceRate] {
        rates.filter { $0.country == country }
    }

    /// Whether `date` lies past the last day `country`'s rates are known to hold for (or the table says of no day
    /// at all), so that an amount on it is the last known rate's, not a confirmed one.
    public func isUnconfirmed(_ country: Country, on date: CivilDate) -> Bool {
        guard let checked = checked[country] else { return true }
        return date > checked.through
    }
}
