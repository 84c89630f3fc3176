import TrackCore
import TrackReports
import TrackText
import TrackctlTexts

/// How trackctl writes mileage-log entries for people.
enum LogText {
    /// `123.4`: the trip's kilometres (or miles) as reports print them.
    static func distance(_ trip: LogTrip, unit: DistanceUnit) -> String {
        DistanceUnit.text(tenths: trip.reportedTenths(in: unit).distance)
    }

    /// The trips as a table, times in the log's zone, distances in `unit`; with an `allowance` (a profile's country),
    /// each business trip's amount and the period's and the tax year's totals.
    static func table(_ trips: [LogTrip], calendar: LocalCalendar?, unit: DistanceUnit = .kilometres,
                      allowance: ReportAllowance? = nil) -> String {
        guard !trips.isEmpty else { return t("no trips") }
        let notesIn = ReportLabels.of(Speech.language).notes
        // Where trips started and ended, when any did at a named place.
        let places = trips.contains { $0.startPlace != nil || $0.endPlace != nil }
        let amounts = allowance.map { allowance in trips.contains { allowance.amountText(of: $0.id) != nil } } ?? false
        var rows = [[t("ID"), t("Date"), t("Time"), t("Kind"), t("Odometer"), unit.rawValue] + (amounts ? [t("Amount")] : [])
                    + [t("Purpose")] + (places ? [t("From → to")] : []) + [t("Notes")]]
        for trip in trips {
            let tenths = trip.reportedTenths(in: unit)
            let figure = { (tenths: Int64) in Format.figure(DistanceUnit.text(tenths: tenths)) }
            let odometer = tenths.start.map { start in figure(start) + "–" + (tenths.end.map(figure) ?? "") } ?? ""
            // The notes the exports print, and whether the entry was typed in (a column of its own in the CSV).
            // A running trip shows its distance up to its last stored point.
            let notes = (trip.state == .open ? [t("open: \(unit.rawValue) so far")] : [])
                + (trip.source == .manual ? [t("by hand")] : [])
                + (trip.toConfirm ? [t("to confirm (by rule: \(trip.rule?.text ?? ""))")] : [])
                + trip.reportNotes(unit: unit, labels: notesIn)
            var purpose = trip.purpose ?? ""
            if let customer = trip.customer, !customer.isEmpty { purpose += purpose.isEmpty ? customer : " · \(customer)" }
            var row = ["\(trip.id)", date(trip, calendar: calendar), times(trip, calendar: calendar),
                       trip.commute ? t("commute") : Words.kind(trip.kind),
                       odometer, Format.figure(distance(trip, unit: unit))]
            if amounts, let allowance {
                row.append(allowance.amountText(of: trip.id) ?? "")
            }
            row.append(purpose)
            if places {
                let ends = [trip.startPlace?.name, trip.endPlace?.name]
                row.append(ends.allSatisfy { $0 == nil } ? "" : ends.map { $0 ?? "·" }.joined(separator: " → "))
            }
            rows.append(row + [notes.joined(separator: "; ")])
        }
        var lines = align(rows, rightAligned: amounts ? [0, 5, 6] : [0, 5])
        let totals = MileageReport.Totals(trips, unit: unit)
        let name = unit.rawValue
        let figure = { (tenths: Int64) in Format.figure(DistanceUnit.text(tenths: tenths)) + " " + name }
        var total = t("business \(figure(totals.business)) · private \(figure(totals.private))")
        if totals.unclassified != 0 { total += t(" · unclassified \(figure(totals.unclassified))") }
        lines.append(total)
        if let allowance { lines += allowance.lines }
        return lines.joined(separator: "\n")
    }

    /// One trip with its history and events, distances in `unit`.
    static func detail(_ detail: TripDetail, calendar: LocalCalendar?, unit: DistanceUnit) -> String {
        let trip = detail.trip
        let kind = Words.kind(trip.kind) + (trip.commute ? t(" (commute)") : "")
        var lines = [t("trip \(trip.id): \(kind), \(Words.source(trip.source)), \(Words.state(trip.state))")]
        // The labels of a trip's facts, padded to the language's longest.
        let labels = [t("date"), t("time"), t("odometer"), t("distance"), t("measured"), t("purpose"), t("customer"),
                      t("destination"), t("detour"), t("from"), t("to"), t("outages"), t("idle alerts"), t("ended"),
                      t("regular"), t("rule"), t("deleted"), t("track")]
        let width = max(12, (labels.map(\.count).max() ?? 0) + 1)
        func add(_ label: String, _ value: String?) {
            if let value, !value.isEmpty { lines.append("  " + label.padding(toLength: width) + value) }
        }
        let figure = { (tenths: Int64) in Format.figure(DistanceUnit.text(tenths: tenths)) }
        add(t("date"), date(trip, calendar: calendar))
        add(t("time"), times(trip, calendar: calendar))
        let tenths = trip.reportedTenths(in: unit)
        add(t("odometer"), tenths.start.map { start in
            figure(start) + " → " + (tenths.end.map(figure) ?? "…") + " " + unit.rawValue
        })
        add(t("distance"), Format.figure(distance(trip, unit: unit)) + " " + unit.rawValue)
        if let measured = trip.measuredDistance, let factor = trip.calibrationFactor {
            let gps = Format.figure(String(printf: "%.3f ", measured / unit.metres)) + unit.rawValue
            let calibration = Format.figure(String(printf: "%.4f", factor))
            add(t("measured"), t("\(gps) by GPS × calibration \(calibration)"))
        }
        add(t("purpose"), trip.purpose)
        add(t("customer"), trip.customer)
        add(t("destination"), trip.destination)
        add(t("detour"), trip.detour)
        add(t("from"), place(trip.startPlace, trip.startPosition))
        add(t("to"), place(trip.endPlace, trip.endPosition))
        if trip.gapCount > 0 {
            let bridged = DurationText.of(trip.bridgedSeconds)
            add(t("outages"), t("\(trip.gapCount), \(bridged) bridged over \(Format.distance(trip.bridgedDistance, unit: unit))"))
        }
        if trip.idleAlerts > 0 { add(t("idle alerts"), "\(trip.idleAlerts)") }
        add(t("ended"), trip.endReason)
        add(t("regular"), trip.regularName)
        add(t("rule"), trip.rule.map { $0.text + (trip.toConfirm ? t(" (to confirm: trackctl confirm \(trip.id))") : t(", confirmed")) })
        add(t("deleted"), trip.deletionReason)
        add(t("track"), detail.segments == 1 ? t("\(detail.trackPoints) points in 1 segment")
                                              : t("\(detail.trackPoints) points in \(detail.segments) segments"))
        if !detail.revisions.isEmpty {
            lines.append(t("history"))
            for revision in detail.revisions { lines.append("  " + LogText.revision(revision)) }
        }
        if !detail.events.isEmpty {
            lines.append(t("events"))
            for event in detail.events {
                lines.append("  \(event.time?.iso8601(fractionDigits: 0) ?? "—")  \(event.kind.rawValue)  \(event.detail)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `2026-11-22T08:10:00Z  purpose: "" → "Client visit"  by anna (gps time): reason`.
    static func revision(_ revision: LogRevision) -> String {
        func quoted(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "—" }
        let change = "\(revision.time.iso8601(fractionDigits: 0))  \(revision.subject) \(revision.field): "
            + "\(quoted(revision.oldValue)) → \(quoted(revision.newValue))"
        var line = t("\(change)  by \(revision.user)")
        if revision.timeSource != "gps" { line += t(" (\(revision.timeSource) time)") }
        if let reason = revision.reason, !reason.isEmpty { line += ": \(reason)" }
        return line
    }

    /// `Home, Pärnu mnt 10 (59.437000, 24.753600)`: the named place with its address, the position, or both.
    static func place(_ place: TripPlace?, _ position: Coordinate?) -> String? {
        switch (place, position) {
        case (let place?, let position?): "\(place.text) (\(coordinate(position)))"
        case (let place?, nil): place.text
        case (nil, let position?): coordinate(position)
        case (nil, nil): nil
        }
    }

    /// `59.436975, 24.753621`.
    static func coordinate(_ coordinate: Coordinate) -> String {
        String(printf: "%.6f, %.6f", coordinate.latitude, coordinate.longitude)
    }

    private static func date(_ trip: LogTrip, calendar: LocalCalendar?) -> String {
        if let date = trip.date { return date.description }
        if let start = trip.start, let calendar { return calendar.date(of: start).description }
        return ""
    }

    private static func times(_ trip: LogTrip, calendar: LocalCalendar?) -> String {
        guard let calendar, let start = trip.start else { return "" }
        let begin = clock(calendar.localTime(start))
        guard let end = trip.end else { return begin + "–" }
        return begin + "–" + clock(calendar.localTime(end))
    }

    private static func clock(_ time: LocalTime) -> String {
        String(printf: "%02ld:%02ld", time.hour, time.minute)
    }

    /// Columns padded to their widest cell.
    static func align(_ rows: [[String]], rightAligned: Set<Int> = []) -> [String] {
        guard let columns = rows.map(\.count).max() else { return [] }
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? pad + cell : cell + (column == row.count - 1 ? "" : pad)
            }.joined(separator: "  ")
        }
    }
}
