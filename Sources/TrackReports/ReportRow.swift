import TrackCore

/// The figures of one trip as the CSV and the HTML table print them, so that both show the same: local date and
/// clock times, UTC times, odometer readings and distance in the profile's unit from `LogTrip.reportedTenths`, and
/// notes.
struct ReportRow: Sendable {
    /// The trip.
    let trip: LogTrip
    /// The trip's local date as the log keeps it, else the date it began (or ended, when only the end is known).
    let date: CivilDate?
    /// Local clock times, `08:05`; empty when unknown.
    let startTime: String
    let endTime: String
    /// The zone's offsets at the start and the end, `+02:00`; empty when unknown.
    let startOffset: String
    let endOffset: String
    /// ISO 8601 UTC times to the second, `2026-11-22T06:05:00Z`; empty when unknown.
    let startUTC: String
    let endUTC: String
    /// The unit of the figures.
    let unit: DistanceUnit
    /// Kilometres (or miles) with one decimal (`12345.6`); the odometer ones empty without readings.
    let odometerStart: String
    let odometerEnd: String
    let distance: String
    /// The distance in tenths of the unit (what the totals add).
    let distanceTenths: Int64
    /// Plain-words notes (see `LogTrip.reportNotes`).
    var notes: [String]

    /// The words of the notes and the caption.
    let labels: ReportLabels

    /// The figures of `trip` in `calendar`'s zone and `unit`, its notes in `labels`' language.
    init(_ trip: LogTrip, calendar: LocalCalendar, unit: DistanceUnit = .kilometres, labels: ReportLabels = .english) {
        self.trip = trip
        self.unit = unit
        self.labels = labels
        let start = trip.start.map(calendar.localTime)
        let end = trip.end.map(calendar.localTime)
        date = trip.date ?? start?.date ?? end?.date
        startTime = start?.timeText ?? ""
        endTime = end?.timeText ?? ""
        startOffset = start?.offsetText ?? ""
        endOffset = end?.offsetText ?? ""
        startUTC = trip.start?.iso8601(fractionDigits: 0) ?? ""
        endUTC = trip.end?.iso8601(fractionDigits: 0) ?? ""
        let tenths = trip.reportedTenths(in: unit)
        odometerStart = tenths.start.map { DistanceUnit.text(tenths: $0) } ?? ""
        odometerEnd = tenths.end.map { DistanceUnit.text(tenths: $0) } ?? ""
        distance = DistanceUnit.text(tenths: tenths.distance)
        distanceTenths = tenths.distance
        let endsLater = end != nil && date != nil && end!.date != date!
        notes = trip.reportNotes(endsOn: endsLater ? end?.date : nil, unit: unit, labels: labels.notes)
    }

    /// `yyyy-mm-dd` or empty.
    var dateText: String { date?.description ?? "" }

    /// The notes joined for one cell.
    var notesText: String { notes.joined(separator: "; ") }

    /// `Trip 42 · 2026-10-24 · 9.9 km · private`: the trip as a map's caption names it.
    var caption: String { ReportRow.caption(trip, date: date, unit: unit, labels: labels) }

    /// `Trip 42 · 2026-10-24 · 9.9 km · private`, without the date when it is unknown.
    static func caption(_ trip: LogTrip, date: CivilDate?, unit: DistanceUnit = .kilometres,
                        labels: ReportLabels = .english) -> String {
        var caption = "\(labels.trip) \(trip.id)"
        if let date { caption += " · \(date)" }
        let distance = labels.number(DistanceUnit.text(tenths: trip.reportedTenths(in: unit).distance))
        return caption + " · \(distance) \(unit.rawValue) · \(labels.kinds[trip.kind] ?? trip.kind.rawValue)"
    }
}
