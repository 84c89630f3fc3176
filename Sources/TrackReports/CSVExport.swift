import TrackCore

/// The mileage log as a CSV table (RFC 4180) for spreadsheets and accountants.
///
/// - The text starts with a UTF-8 byte-order mark (U+FEFF): without it Excel reads the file as the system's
///   legacy code page and mangles non-ASCII names (Õunapuu); LibreOffice and CSV libraries accept it.
/// - Records end with CRLF; a field containing a comma, a double quote, CR or LF is enclosed in double quotes with
///   inner quotes doubled. Every record has the same number of fields, the totals rows included.
/// - One header row, one row per trip (oldest first; deleted ones listed with state `deleted` and left out of the
///   totals), then the totals rows: `id` = `total`, `kind` = business, private, unclassified (only when the report
///   has unclassified trips) and all, `distance_km` = the sum, `notes` = the number of trips.
/// - Formula injection guard: a text field (purpose, customer, notes…) that begins with `=`, `+`, `-`, `@`, a tab
///   or a carriage return gets a leading `'`, so a spreadsheet shows it as text instead of running it as a
///   formula. Number fields (kilometres, such as `-0.4` of a correction) are written as they are.
/// - Dates and clock times are local to the profile's time zone; `start_utc`/`end_utc` are UTC, to the second.
/// - Places: `start_place`/`end_place` are the names of the named places the trip started and ended at
///   (`LogTrip.startPlace`, `.endPlace`), `start_address`/`end_address` their addresses; empty when the trip has
///   none. They are text fields, guarded like the others, and are printed as the trip carries them, whatever its
///   route.
/// - The table has no position columns (a place is a name, not a position); a trip whose route is not kept
///   (`TripRoute`) keeps its row, and its `notes` say so (`route not kept (private trip, privacy mode)`,
///   `route erased`).
/// - The last two columns, after the odometer's sources (so that no column moves): `commute` (`yes` for a private trip
///   between home and the regular place of work, else empty) and `detour` (a detour and why, as the driver wrote it).
public enum CSVExport {
    /// The header's field names, in order.
    public static let columns = ["id", "date", "start_time", "end_time", "start_utc", "end_utc", "odometer_start_km",
                                 "odometer_end_km", "distance_km", "kind", "purpose", "customer", "destination",
                                 "start_place", "start_address", "end_place", "end_address", "source", "state",
                                 "driver", "plate", "company", "notes", "odometer_start_source", "odometer_end_source",
                                 "commute", "detour"]

    /// The header for a report in `unit`: the distance columns say it (`distance_km`, `distance_mi`).
    public static func columns(for unit: DistanceUnit) -> [String] {
        unit == .kilometres ? columns : columns.map { $0.hasSuffix("_km") ? String($0.dropLast(2)) + unit.rawValue : $0 }
    }

    /// The byte-order mark the text begins with.
    public static let byteOrderMark = "\u{FEFF}"

    /// The CSV text of `report`; throws for a profile whose time zone is unknown.
    public static func render(_ report: MileageReport) throws(ReportError) -> String {
        let calendar = try LocalCalendar(profile: report.profile)
        let profile = report.profile
        let unit = profile.distanceUnit
        var text = byteOrderMark
        append(columns(for: unit).map(Field.text), to: &text)
        for entry in report.trips {
            let row = ReportRow(entry.trip, calendar: calendar, unit: unit)
            let trip = entry.trip
            append([
                .number(trip.id.description), .number(row.dateText), .number(row.startTime), .number(row.endTime),
                .number(row.startUTC), .number(row.endUTC), .number(row.odometerStart), .number(row.odometerEnd),
                .number(row.distance), .text(trip.kind.rawValue), .text(trip.purpose ?? ""),
                .text(trip.customer ?? ""), .text(trip.destination ?? ""),
                .text(trip.startPlace?.name ?? ""), .text(trip.startPlace?.address ?? ""),
                .text(trip.endPlace?.name ?? ""), .text(trip.endPlace?.address ?? ""), .text(trip.source.rawValue),
                .text(trip.state.rawValue), .text(profile.driver ?? ""), .text(profile.plate ?? ""),
                .text(profile.company ?? ""), .text(row.notesText),
                .text(trip.odometerStartSource?.rawValue ?? ""), .text(trip.odometerEndSource?.rawValue ?? ""),
                .text(trip.commute ? "yes" : ""), .text(trip.detour ?? ""),
            ], to: &text)
        }
        for line in ReportSummary(report).lines {
            var fields = [Field](repeating: .text(""), count: columns.count)
            fields[column("id")] = .text("total")
            fields[column("distance_km")] = .number(DistanceUnit.text(tenths: line.tenths))
            fields[column("kind")] = .text(line.kind)
            fields[column("notes")] = .text(line.tripsText)
            append(fields, to: &text)
        }
        return text
    }

    /// The index of the column named `name` (one of `columns`): the totals rows stay in step with the header.
    static func column(_ name: String) -> Int {
        guard let index = columns.firstIndex(of: name) else { preconditionFailure("no CSV column '\(name)'") }
        return index
    }

    /// A field: text is guarded against formula injection, numbers (and dates, times) are not.
    enum Field {
        case text(String)
        case number(String)
    }

    /// Appends one record with its CRLF.
    static func append(_ fields: [Field], to text: inout String) {
        for (index, field) in fields.enumerated() {
            if index > 0 { text += "," }
            switch field {
            case .text(let value): text += quoted(guarded(value))
            case .number(let value): text += quoted(value)
            }
        }
        text += "\r\n"
    }

    /// `value` with a leading `'` when a spreadsheet would take it for a formula.
    static func guarded(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) else {
            return value
        }
        return "'" + value
    }

    /// `value` enclosed in double quotes (inner ones doubled) when it holds a comma, a double quote, CR or LF.
    static func quoted(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else {
            return value
        }
        return "\"" + value.replacingAll("\"", with: "\"\"") + "\""
    }
}
