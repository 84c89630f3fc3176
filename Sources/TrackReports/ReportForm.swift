import TrackCore

/// The trip table a country's tax office expects, and the language it is printed in: the German Fahrtenbuch's
/// columns in German, the Estonian sõidupäevik's in Estonian, the UK and US logs in English (docs/countries.md).
public struct ReportForm: Sendable {
    /// The columns, in order; `amount` only where the report has an allowance.
    public var columns: [ReportColumn]
    public var labels: ReportLabels
    /// Whether the tax year's summary gives commutes apart from the other private trips: the Fahrtenbuch's
    /// Wohnung–Arbeitsstätte, and Schedule C's commuting miles (Part IV, line 44b: business, commuting, other).
    public var commutesApart: Bool
    /// Whether a row a person changed after it was written says so in its notes: the Fahrtenbuch's, whose entries
    /// the Finanzamt accepts only unaltered or with the change visible (R 8.1 Abs. 9 Nr. 2 LStR).
    public var marksChanges: Bool

    /// The form for `country` (`nil`: the log without a country, in English).
    public init(country: Country?) {
        labels = .of(country?.language ?? .english)
        switch country {
        case .germany?:
            // Datum, km-Stand Beginn und Ende, Reiseziel mit Anschrift, Reisezweck, aufgesuchte Geschäftspartner,
            // Umwege; dienstliche und private km; Wege Wohnung–erste Tätigkeitsstätte.
            columns = [.number, .date, .start, .end, .odometerStart, .odometerEnd, .destination, .purpose, .customer,
                       .detours, .businessDistance, .privateDistance, .commuteDistance, .amount, .notes]
            commutesApart = true
            marksChanges = true
        case .estonia?:
            columns = [.number, .date, .start, .end, .odometerStart, .odometerEnd, .distance, .amount, .kind, .purpose,
                       .whereabouts, .notes]
            commutesApart = false
            marksChanges = false
        case .unitedKingdom?, .unitedStates?, nil:
            columns = [.number, .date, .start, .end, .odometerStart, .odometerEnd, .distance, .amount, .kind, .purpose,
                       .whereabouts, .notes]
            commutesApart = country == .unitedStates
            marksChanges = false
        }
    }
}
