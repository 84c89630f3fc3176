import TrackCore

/// A column of the printable report's trip table. Which ones a report has, in which order, is its country's form
/// (`ReportForm`); what each is called is its language's (`ReportLabels.columns`).
public enum ReportColumn: String, Sendable, Hashable, CaseIterable {
    case number, date, start, end, odometerStart, odometerEnd
    /// The trip's distance in the profile's unit.
    case distance
    /// The distance in a column of its kind's (the Fahrtenbuch's business and private kilometres).
    case businessDistance, privateDistance
    /// Trips between home and the regular place of work (the Fahrtenbuch's own column; trackd has no such kind yet,
    /// so it stays empty).
    case commuteDistance
    /// The allowance (with a country's rates).
    case amount
    case kind, purpose
    /// Customer, destination and the named places, in one cell.
    case whereabouts
    /// The destination with its address: the destination typed in, else the named place it ended at.
    case destination
    /// The business partner visited.
    case customer
    /// Detours (Umwege): what the trip's notes say of them; trackd records none, so it stays empty.
    case detours
    case notes

    /// Whether its cells are figures (right-aligned).
    var isNumeric: Bool {
        switch self {
        case .number, .odometerStart, .odometerEnd, .distance, .businessDistance, .privateDistance, .commuteDistance,
             .amount: true
        default: false
        }
    }

    /// Whether its header names the unit after its label (`km`, `mi`).
    var showsUnit: Bool {
        switch self {
        case .distance, .businessDistance, .privateDistance, .commuteDistance: true
        default: false
        }
    }
}
