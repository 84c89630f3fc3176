/// What a country's mileage allowance pays for business trips: each trip's amount and the totals, exact in minor
/// units (cents, pence).
///
/// A calendar month's amount is its trips' tenths of a unit times the rate in force on each trip's date, rounded
/// once, half up, to the minor unit, and held to the month's cap where there is one; each trip's amount is what it
/// adds to its month's, so the trips of a month add up to the month exactly and a cap reached mid-month shows on the
/// trip that reached it. A yearly threshold (the UK's 10,000 miles) is counted over the tax year in date order; the
/// trip that crosses it is split. Pure: trips in, amounts out.
public struct MileageAllowance: Sendable, Hashable {
    /// One business trip, in tenths of the country's unit (as the report prints it).
    public struct Trip: Sendable, Hashable {
        public var id: TripID
        public var date: CivilDate
        public var tenths: Int64

        public init(id: TripID, date: CivilDate, tenths: Int64) {
            self.id = id
            self.date = date
            self.tenths = tenths
        }
    }

    /// What one trip is paid.
    public struct Line: Sendable, Hashable {
        public var trip: TripID
        public var date: CivilDate
        public var tenths: Int64
        /// Of `tenths`, those past the tax year's threshold, paid at the reduced rate.
        public var reducedTenths: Int64
        /// Minor units; `nil` when no rate was in force on its date.
        public var amount: Int64?
        /// The rule that made it.
        public var rate: AllowanceRate?
        /// Whether the month's cap cut it.
        public var capped: Bool
    }

    public let country: Country
    /// The trips' amounts, in date order (trips of one day in the order of their numbers).
    public let lines: [Line]
    /// How far the table's rates for the country are known to hold (`nil`: the table says of no day, or the amounts
    /// are at the profile's own rate, which needs no confirming).
    public let checked: RateTable.Checked?
    /// Whether the amounts are at the profile's own rate.
    public let isOwnRate: Bool
    /// The first day the table has a rate for the country on (`nil` at the profile's own rate, or without any).
    public let tableStart: CivilDate?

    /// The amounts of `trips` by the rates of `table` for `country`, or at an employer's `ownRate` (thousandths of
    /// the currency per unit, no threshold, no cap) instead.
    public init(country: Country, trips: [Trip], rates table: RateTable, ownRate: Int64? = nil) {
        self.country = country
        checked = ownRate == nil ? table.checked[country] : nil
        isOwnRate = ownRate != nil
        tableStart = ownRate == nil ? table.first(for: country)?.from : nil
        let ordered = trips.sorted { ($0.date, $0.id.rawValue) < ($1.date, $1.id.rawValue) }
        var yearTenths: [CivilDate: Int64] = [:]
        // Per month: the unrounded amount so far, in ten-thousandths of the currency (tenths × thousandths).
        var monthRaw: [Int: Int64] = [:]
        var lines: [Line] = []
        for trip in ordered {
            let tenths = max(0, trip.tenths)
            guard let rate = ownRate.map({ AllowanceRate.own($0, country: country) })
                    ?? table.inForce(for: country, on: trip.date) else {
                lines.append(Line(trip: trip.id, date: trip.date, tenths: tenths, reducedTenths: 0, amount: nil,
                                  rate: nil, capped: false))
                continue
            }
            var reduced: Int64 = 0
            if let threshold = rate.threshold, rate.reducedRate != nil {
                let year = country.taxYear(of: trip.date)
                let before = yearTenths[year, default: 0]
                reduced = tenths - max(0, min(tenths, threshold * 10 - before))
                yearTenths[year] = before + tenths
            }
            let raw = (tenths - reduced) * rate.rate + reduced * (rate.reducedRate ?? rate.rate)
            let month = trip.date.year * 12 + trip.date.month
            let before = monthRaw[month, default: 0]
            monthRaw[month] = before + raw
            let paidBefore = Self.paid(before, cap: rate.monthlyCap)
            let paidAfter = Self.paid(before + raw, cap: rate.monthlyCap)
            lines.append(Line(trip: trip.id, date: trip.date, tenths: tenths, reducedTenths: reduced,
                              amount: paidAfter - paidBefore,
                              rate: rate, capped: Self.rounded(before + raw) > paidAfter))
        }
        self.lines = lines
    }

    /// The allowance for the log's entries: its closed business trips with a date, in tenths of the country's unit
    /// as a report prints them (deleted, private, unclassified and open entries are not paid); at an employer's
    /// `ownRate` (thousandths of the currency per unit, no threshold, no cap) instead of the country's in `table`.
    public init(country: Country, entries: [LogTrip], rates table: RateTable, ownRate: Int64? = nil) {
        self.init(country: country, trips: entries.compactMap { entry in
            guard entry.kind == .business, entry.counts, entry.state == .closed, let date = entry.date else { return nil }
            return Trip(id: entry.id, date: date, tenths: entry.reportedTenths(in: country.unit).distance)
        }, rates: table, ownRate: ownRate)
    }

    /// The line of trip `id`, if it is paid.
    public func line(of id: TripID) -> Line? {
        lines.first { $0.trip == id }
    }

    /// The amount of the trips dated `from` through `through`, minor units.
    public func total(from: CivilDate, through: CivilDate) -> Int64 {
        lines.filter { $0.date >= from && $0.date <= through }.reduce(0) { $0 + ($1.amount ?? 0) }
    }

    /// Ten-thousandths of the currency rounded half up to minor units (hundredths).
    private static func rounded(_ raw: Int64) -> Int64 {
        (raw + 50) / 100
    }

    private static func paid(_ raw: Int64, cap: Int64?) -> Int64 {
        cap.map { min($0, rounded(raw)) } ?? rounded(raw)
    }
}
