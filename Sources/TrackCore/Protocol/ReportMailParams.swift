/// `report.mail`'s parameters: the month whose report trackd sends now to trackd.conf's `mail.to`.
public struct ReportMailParams: Sendable, Codable, Hashable {
    /// `YYYY-MM`.
    public var month: String

    public init(month: String) {
        self.month = month
    }

    /// The month's first day, read as `--month` is (`LogPeriod.month(parsing:)`).
    public func firstDay() throws(LogPeriodError) -> CivilDate {
        let period = try LogPeriod.month(parsing: month)
        guard case .month(let year, let number) = period, let first = CivilDate(year: year, month: number, day: 1) else {
            throw .badMonth(month)
        }
        return first
    }
}
