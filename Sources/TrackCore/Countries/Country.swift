/// The country whose tax office the log is kept for: it sets the rules the log is checked against, the rate of the
/// mileage allowance and the unit a person reads distances in. `nil` in the profile: none (kilometres, no rates).
public enum Country: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Estonia: Maksu- ja Tolliamet.
    case estonia = "EE"
    /// Germany: the Finanzamt.
    case germany = "DE"
    /// The United Kingdom: HMRC.
    case unitedKingdom = "UK"
    /// The United States: the IRS.
    case unitedStates = "US"

    /// A country from its code as a person types it (`ee`, `DE`, `GB` for the UK), or `nil`.
    public init?(code: String) {
        let upper = code.uppercased()
        if upper == "GB" {
            self = .unitedKingdom
        } else if let country = Country(rawValue: upper) {
            self = country
        } else {
            return nil
        }
    }

    /// The unit its tax office counts in.
    public var unit: DistanceUnit {
        switch self {
        case .estonia, .germany: .kilometres
        case .unitedKingdom, .unitedStates: .miles
        }
    }

    /// The language its log's report is printed in (docs/countries.md).
    public var language: Language {
        switch self {
        case .estonia: .estonian
        case .germany: .german
        case .unitedKingdom, .unitedStates: .english
        }
    }

    /// The currency its allowance is paid in.
    public var currency: Currency {
        switch self {
        case .estonia, .germany: .euro
        case .unitedKingdom: .pound
        case .unitedStates: .dollar
        }
    }

    /// The first day of its tax year, as a month and a day (the UK's runs from 6 April; the others' from 1 January).
    public var taxYearStart: (month: Int, day: Int) {
        self == .unitedKingdom ? (4, 6) : (1, 1)
    }

    /// The first day of the tax year `date` falls in.
    public func taxYear(of date: CivilDate) -> CivilDate {
        let start = taxYearStart
        let thisYear = CivilDate(year: date.year, month: start.month, day: start.day)!
        return date >= thisYear ? thisYear : CivilDate(year: date.year - 1, month: start.month, day: start.day)!
    }

    /// The first days of the tax years that the days `from` through `through` touch, oldest first (none when
    /// `through` comes before `from`).
    public func taxYears(from: CivilDate, through: CivilDate) -> [CivilDate] {
        guard from <= through else { return [] }
        var years = [taxYear(of: from)]
        var next = nextTaxYear(after: years[0])
        while next <= through {
            years.append(next)
            next = nextTaxYear(after: next)
        }
        return years
    }

    /// The first day of the tax year after the one that starts on `start`.
    public func nextTaxYear(after start: CivilDate) -> CivilDate {
        let first = taxYearStart
        return CivilDate(year: taxYear(of: start).year + 1, month: first.month, day: first.day)!
    }

    /// The code: `EE`, `DE`, `UK`, `US`.
    public var description: String { rawValue }

    /// Its name in English.
    public var name: String {
        switch self {
        case .estonia: "Estonia"
        case .germany: "Germany"
        case .unitedKingdom: "the United Kingdom"
        case .unitedStates: "the United States"
        }
    }
}
