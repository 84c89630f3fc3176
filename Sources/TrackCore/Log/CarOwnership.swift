/// Whose car the log is kept for: what decides whether a mileage allowance is paid for its business trips. The
/// allowances of trackd's countries (the German 0.30 €/km Reisekosten, HMRC's approved mileage rates, the Estonian
/// compensation, the IRS standard rate) are for a car of one's own; a company car's log is kept for its private
/// use, and has no kilometre allowance.
public enum CarOwnership: String, Sendable, Hashable, Codable, CaseIterable {
    /// The driver's own car: the allowance is worked out.
    case own
    /// A company car: no allowance.
    case company
}
