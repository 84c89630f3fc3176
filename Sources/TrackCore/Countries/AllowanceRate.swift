/// One country's mileage allowance as it stood from a date on: the rate per unit (in thousandths of the currency,
/// so that 72.5 cents is exact), a lower rate past a yearly threshold, a monthly cap, and where the rule comes from.
/// The table of them is data (`RateTable`, read from `etc/rates.conf` and the user's `/etc/trackd/rates.d/`).
public struct AllowanceRate: Sendable, Hashable {
    public var country: Country
    /// The first day it applies (a trip's local date).
    public var from: CivilDate
    /// Thousandths of the currency per unit of the country (0.45 £/mile: 450).
    public var rate: Int64
    /// Past `threshold` units in a tax year, this rate instead (the UK's 25p after 10,000 miles).
    public var reducedRate: Int64?
    /// Units per tax year at the full rate.
    public var threshold: Int64?
    /// The most a calendar month's trips are paid, minor units (Estonia's 550 €).
    public var monthlyCap: Int64?
    /// The law or notice it comes from.
    public var source: String
    /// Whether it is the profile's own rate (`own`), which has no first day of its own.
    public var isOwn = false
    /// Where it was read: `FILE:LINE` of a rate file (`nil` when made otherwise).
    public var origin: String?

    public init(_ country: Country, from: CivilDate, rate: Int64, reducedRate: Int64? = nil, threshold: Int64? = nil,
                monthlyCap: Int64? = nil, source: String) {
        self.country = country
        self.from = from
        self.rate = rate
        self.reducedRate = reducedRate
        self.threshold = threshold
        self.monthlyCap = monthlyCap
        self.source = source
    }

    /// An employer's own rate (`LogProfile.rate`) for `country`: the same for every date, no threshold, no cap.
    public static func own(_ rate: Int64, country: Country) -> AllowanceRate {
        var own = AllowanceRate(country, from: CivilDate(year: 1970, month: 1, day: 1)!, rate: rate,
                                source: "the profile's own rate: an employer's, trackctl profile set --rate")
        own.isOwn = true
        return own
    }

    /// Thousandths of the currency from a rate as a person types it: `0.42`, `0,42`, `1`, `0.725` (at most three
    /// decimals, more than 0, less than 10); `nil` for anything else.
    public static func thousandths(_ text: String) -> Int64? {
        fixedPoint(text, separator: text.contains(",") ? "," : ".", decimals: 3, wholeDigits: 1)
    }

    /// A positive number written with digits, at most `wholeDigits` before `separator` and `decimals` after it, in
    /// units of its last decimal (`fixedPoint("550.5", separator: ".", decimals: 2, wholeDigits: 9)` is 55050);
    /// `nil` for anything else, and for 0.
    public static func fixedPoint(_ text: String, separator: Character, decimals: Int, wholeDigits: Int) -> Int64? {
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (48...57).contains($0) } }),
              parts[0].count <= wholeDigits, let whole = Int64(String(parts[0]))
        else { return nil }
        let fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.count <= decimals else { return nil }
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let value = whole * scale + (Int64(fraction + String(repeating: "0", count: decimals - fraction.count)) ?? 0)
        return value > 0 ? value : nil
    }

    /// `0.45 £/mi (0.25 £ past 10,000 mi a tax year)`, `0.50 €/km, at most 550.00 € a month`.
    public var summary: String {
        let currency = country.currency
        let unit = country.unit.rawValue
        var text = "\(Self.rateText(rate, currency))/\(unit)"
        if let reducedRate, let threshold {
            text += " (\(Self.rateText(reducedRate, currency)) past \(Self.grouped(threshold)) \(unit) a tax year)"
        }
        if let monthlyCap { text += ", at most \(currency.text(minor: monthlyCap)) a month" }
        return text
    }

    /// Thousandths of the currency as a rate, to the cent at least: `$0.725`, `£0.45`, `0.50 €`.
    public static func rateText(_ thousandths: Int64, _ currency: Currency) -> String {
        let fraction = thousandths % 1000
        var digits = String(fraction + 1000).dropFirst()
        if digits.hasSuffix("0") { digits = digits.dropLast() }
        let number = "\(thousandths / 1000).\(digits)"
        switch currency {
        case .euro: return "\(number) €"
        case .pound: return "£\(number)"
        case .dollar: return "$\(number)"
        }
    }

    /// `10,000`.
    public static func grouped(_ value: Int64) -> String {
        let digits = Array(String(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}
