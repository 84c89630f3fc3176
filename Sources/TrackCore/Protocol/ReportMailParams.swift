/// `report.mail`'s parameters: the month whose report trackd sends now to trackd.conf's `mail.to`.
public struct ReportMailParams: Sendable, Codable, Hashable {
    /// `YYYY-MM`.
    public var month: String

    public init(month: String) {
        self.month = month
    }

    /// The month's first day; `nil` when `month` is not `YYYY-MM` with a month from 01 to 12.
    public var firstDay: CivilDate? {
        let parts = month.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
              let year = Int(parts[0]), let number = Int(parts[1]), (1...12).contains(number) else { return nil }
        return CivilDate(year: year, month: number, day: 1)
    }
}
