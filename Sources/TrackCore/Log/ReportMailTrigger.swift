/// Who sent a month's report by e-mail.
public enum ReportMailTrigger: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// trackd, once the month had ended.
    case monthly
    /// A person, with `trackctl export --mail`.
    case manual

    public var description: String { rawValue }
}
