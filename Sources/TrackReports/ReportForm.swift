import TrackCore

/// The trip table a country's tax office expects, and the language it is printed in: the German Fahrtenbuch's
/// columns in German, the Estonian sõidupäevik's in Estonian, the UK and US logs in English (docs/countries.md).
public struct ReportForm: Sendable {
    /// The columns, in order; `amount` only where the report has an allowance.
    public var columns: [ReportColumn]
    public var labels: ReportLabels

    /// The form for `country` (`nil`: the log without a country, in English).
    public init(country: Country?) {
        switch country {
        case .germany?:
            // Datum, km-Stand Beginn und Ende, Reiseziel mit Anschrift, Reisezweck, aufgesuchte Geschäftspartner,
            // Umwege; dienstliche und private km; Wege Wohnung–erste Tätigkeitsstätte.
            columns = [.number, .date, .start, .end, .odometerStart, .odometerEnd, .destination, .purpose, .customer,
                       .detours, .businessDistance, .privateDistance, .commuteDistance, .amount, .notes]
            labels = .german
        case .estonia?:
            columns = [.number, .date, .start, .end, .odometerStart, .odometerEnd, .distance, .amount, .kind, .purpose,
                       .whereabouts, .notes]
            labels = .estonian
        case .unitedKingdom?, .unitedStates?, nil:
            columns = [.number, .date, .start, .end, .odometerStart, .odometerEnd, .distance, .amount, .kind, .purpose,
                       .whereabouts, .notes]
            labels = .english
        }
    }
}
