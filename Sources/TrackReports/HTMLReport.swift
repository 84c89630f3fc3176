import TrackCore

/// The mileage log as one printable, self-contained HTML5 page: no external style sheets, fonts, scripts or images.
///
/// The page is also well-formed XML (XHTML syntax: every element closed, text escaped, only XML's own entities) so
/// that XML tools can read it. It prints on A4 portrait (see `styleSheet`) and has, in order: a header (period,
/// driver, plate, company, time zone, when and by what it was made), the trip table with the totals, the change
/// history, a small map of every recorded track (`TrackMap`, with the trip's start and end place marked where it has
/// a position for them) and a line for each trip whose route is not kept (`TripRoute`: no map, no position), and a
/// footer with the hash-chain head to check with `trackctl verify`. A trip's row shows the named places it started
/// and ended at as `Home → Example Ltd` (their addresses as the names' titles), whatever its route: what the trip
/// carries, nothing invented.
/// Times are local to the profile's time zone unless marked UTC.
public enum HTMLReport {
    /// The HTML text of `report`; throws for a profile whose time zone is unknown.
    public static func render(_ report: MileageReport) throws(ReportError) -> String {
        let calendar = try LocalCalendar(profile: report.profile)
        let rows = report.trips.map { ReportRow($0.trip, calendar: calendar, unit: report.profile.distanceUnit) }
        var html = "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
        html += "<meta charset=\"utf-8\"/>\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
        html += "<meta name=\"generator\" content=\"\(escape(report.generator))\"/>\n"
        html += "<title>Mileage log — \(escape(report.periodTitle))</title>\n"
        html += "<style>\n\(styleSheet)\n</style>\n</head>\n<body>\n"
        html += header(report, calendar: calendar)
        html += tripTable(report, rows: rows)
        html += allowance(report)
        html += check(report)
        html += history(report, calendar: calendar)
        html += maps(report, rows: rows)
        html += footer(report)
        html += "</body>\n</html>\n"
        return html
    }

    /// (a) The title and the facts about the log and the report.
    static func header(_ report: MileageReport, calendar: LocalCalendar) -> String {
        let profile = report.profile
        let generated = calendar.localTime(report.generatedAt)
        var period = report.periodTitle
        if let from = report.from, let until = report.until {
            period += " (\(from) to \(until.previous))"
        }
        var facts: [(String, String)] = [
            ("Driver", profile.driver ?? "—"), ("Plate", profile.plate ?? "—"),
            ("Company", profile.company ?? "—"), ("Time zone", calendar.identifier),
            ("Generated", "\(generated)\n\(report.generatedAt.iso8601(fractionDigits: 0)) (UTC)"),
            ("By", report.generator.isEmpty ? "trackd" : report.generator),
        ]
        if report.kind != .all { facts.append(("Trips", "\(report.kind.rawValue) only")) }
        var html = "<header>\n<h1>Mileage log</h1>\n<p class=\"period\">\(escape(period))</p>\n<dl class=\"facts\">\n"
        for (term, value) in facts {
            html += "<dt>\(escape(term))</dt><dd>\(multiline(value))</dd>\n"
        }
        return html + "</dl>\n</header>\n"
    }

    /// (b) One row per trip, oldest first, and the totals.
    static func tripTable(_ report: MileageReport, rows: [ReportRow]) -> String {
        let allowance = report.allowance
        var html = "<section class=\"trips\">\n<h2>Trips</h2>\n<table class=\"trips\">\n<colgroup>"
        html += "<col class=\"no\"/><col class=\"date\"/><col class=\"start\"/><col class=\"end\"/>"
        html += "<col class=\"odometer\"/><col class=\"odometer\"/><col class=\"km\"/>"
        if allowance != nil { html += "<col class=\"amount\"/>" }
        html += "<col class=\"kind\"/><col class=\"purpose\"/><col class=\"where\"/><col class=\"notes\"/></colgroup>\n"
        html += "<thead><tr><th class=\"num\">No.</th><th>Date</th><th>Start</th><th>End</th>"
        html += "<th class=\"num\">Odometer start</th><th class=\"num\">Odometer end</th>"
        html += "<th class=\"num\">\(report.profile.distanceUnit.rawValue)</th>"
        if allowance != nil { html += "<th class=\"num\">Amount</th>" }
        html += "<th>Kind</th><th>Purpose</th><th>Customer / destination / from → to</th><th>Notes</th></tr>"
        html += "</thead>\n<tbody>\n"
        if rows.isEmpty {
            html += "<tr><td colspan=\"\(allowance == nil ? 11 : 12)\" class=\"empty\">No trips in this period.</td></tr>\n"
        }
        for row in rows {
            html += tripRow(row, amount: allowance.map { $0.text(of: row.trip.id) ?? "" })
        }
        html += "</tbody>\n<tfoot>\n"
        for line in ReportSummary(report).lines {
            let label = line.kind == "all" ? "All trips" : "Total \(line.kind)"
            html += "<tr class=\"total \(line.kind)\" data-kind=\"\(line.kind)\">"
            html += "<td colspan=\"6\">\(escape(label)) (\(line.tripsText))</td>"
            html += "<td class=\"num km\">\(DistanceUnit.text(tenths: line.tenths))</td>"
            if let allowance {
                let total = line.kind == "business" || line.kind == "all" ? allowance.currency.text(minor: allowance.total) : ""
                html += "<td class=\"num amount\">\(escape(total))</td>"
            }
            html += "<td colspan=\"4\"></td></tr>\n"
        }
        html += "</tfoot>\n</table>\n"
        // Where the odometer readings came from, for the letters after them (only the sources the table shows).
        let sources = OdometerSource.allCases.filter { source in
            rows.contains { $0.trip.odometerStartSource == source || $0.trip.odometerEndSource == source }
        }
        if !sources.isEmpty {
            html += "<p class=\"sources\">Odometer readings: "
            html += sources.map { "\(sourceLetter($0)) \(sourceText($0))" }.joined(separator: " · ") + ".</p>\n"
        }
        return html + "</section>\n"
    }

    /// One trip's row: deleted ones struck through with the reason, a business trip without purpose highlighted;
    /// with an `amount` column, the trip's allowance.
    static func tripRow(_ row: ReportRow, amount: String? = nil) -> String {
        let trip = row.trip
        var classes = ["trip", trip.kind.rawValue]
        if trip.state == .deleted { classes.append("deleted") }
        if trip.lacksPurpose { classes.append("lacks-purpose") }
        var html = "<tr class=\"\(classes.joined(separator: " "))\" id=\"trip-\(trip.id)\">"
        html += "<td class=\"num\">\(trip.id)</td><td class=\"fixed\">\(row.dateText)</td>"
        html += "<td class=\"fixed\" title=\"\(row.startUTC)\">\(row.startTime)</td>"
        html += "<td class=\"fixed\" title=\"\(row.endUTC)\">\(row.endTime)</td>"
        html += "<td class=\"num\">\(row.odometerStart)\(sourceMark(row.odometerStart.isEmpty ? nil : trip.odometerStartSource))</td>"
        html += "<td class=\"num\">\(row.odometerEnd)\(sourceMark(row.odometerEnd.isEmpty ? nil : trip.odometerEndSource))</td>"
        html += "<td class=\"num km\">\(row.distance)</td>"
        if let amount { html += "<td class=\"num amount\">\(escape(amount))</td>" }
        html += "<td>\(trip.kind.rawValue)</td>"
        html += "<td class=\"text\">\(multiline(trip.purpose ?? ""))</td>"
        var whereabouts = [trip.customer, trip.destination].compactMap { $0 }.filter { !$0.isEmpty }.map(multiline)
        if let fromTo = fromTo(trip) { whereabouts.append(fromTo) }
        html += "<td class=\"text\">\(whereabouts.joined(separator: "<br/>"))</td>"
        let notes = row.notes.map { note in
            note == "purpose missing" ? "<span class=\"missing\">purpose missing</span>" : multiline(note)
        }
        html += "<td class=\"notes text\">\(notes.joined(separator: "<br/>"))</td></tr>\n"
        return html
    }

    /// The letter after an odometer reading that says where it came from (`C` the car, `D` the dashboard, `G` GPS);
    /// nothing for entries from before the log kept it.
    static func sourceMark(_ source: OdometerSource?) -> String {
        guard let source else { return "" }
        return " <span class=\"source \(source.rawValue)\" title=\"\(sourceText(source))\">\(sourceLetter(source))</span>"
    }

    static func sourceLetter(_ source: OdometerSource) -> String {
        switch source {
        case .car: "C"
        case .dashboard: "D"
        case .gps: "G"
        }
    }

    static func sourceText(_ source: OdometerSource) -> String {
        switch source {
        case .car: "read from the car (OBD-II)"
        case .dashboard: "a dashboard reading typed in"
        case .gps: "the log's odometer carried on by GPS kilometres"
        }
    }

    /// `Home (Pärnu mnt 10) → Example Ltd (Tartu mnt 1)`: the trip's start and end place with their addresses (printed:
    /// the tax office reads them; also the title), `—` for a missing one; `nil` when the trip has neither.
    static func fromTo(_ trip: LogTrip) -> String? {
        guard trip.startPlace != nil || trip.endPlace != nil else { return nil }
        func place(_ place: TripPlace?, _ role: String) -> String {
            guard let place else { return "<span class=\"place \(role) none\">—</span>" }
            let title = place.address.map { " title=\"\(escape($0))\"" } ?? ""
            let address = place.address.map { "<span class=\"address\"> (\(multiline($0)))</span>" } ?? ""
            return "<span class=\"place \(role)\"\(title)>\(multiline(place.name))\(address)</span>"
        }
        return "<span class=\"places\">\(place(trip.startPlace, "from")) → \(place(trip.endPlace, "to"))</span>"
    }

    /// The allowance of the period's business trips, the tax year's to its end, and the rules that made it (with a
    /// country in the profile; `docs/countries.md`).
    static func allowance(_ report: MileageReport) -> String {
        guard let allowance = report.allowance else { return "" }
        let currency = allowance.currency
        var html = "<section class=\"allowance\">\n<h2>Allowance (\(escape(allowance.country.name)))</h2>\n"
        html += "<p class=\"allowance-total\">This period: <strong>\(escape(currency.text(minor: allowance.total)))</strong>"
        if let year = allowance.yearFrom, let total = allowance.yearTotal {
            html += " · tax year from \(year) to the period's end: \(escape(currency.text(minor: total)))"
        }
        html += "</p>\n"
        if !allowance.rules.isEmpty {
            html += "<ul class=\"rules\">\n" + allowance.rules.map { "<li>\(escape($0))</li>\n" }.joined() + "</ul>\n"
        }
        return html + "</section>\n"
    }

    /// What `trackctl check` finds in the period: each finding with its trip and its fix, or that there is none.
    static func check(_ report: MileageReport) -> String {
        guard let findings = report.findings else { return "" }
        var html = "<section class=\"check\">\n<h2>Check</h2>\n"
        guard !findings.isEmpty else {
            return html + "<p class=\"clean\">Nothing a tax office would question (<code>trackctl check</code>).</p>\n</section>\n"
        }
        html += "<ul class=\"findings\">\n"
        for finding in findings {
            let subject = finding.trip.map { "Trip \($0)" } ?? "Profile"
            html += "<li class=\"finding \(finding.rule.rawValue)\"><strong>\(escape(subject))</strong>: \(escape(finding.problem)). "
            html += "<span class=\"why\">\(escape(finding.why)).</span> <span class=\"fix\">Fix: <code>\(escape(finding.fix))</code></span></li>\n"
        }
        return html + "</ul>\n</section>\n"
    }

    /// (c) Every change, oldest first.
    static func history(_ report: MileageReport, calendar: LocalCalendar) -> String {
        var html = "<section class=\"history\">\n<h2>Change history</h2>\n"
        guard !report.revisions.isEmpty else {
            return html + "<p class=\"empty\">No changes</p>\n</section>\n"
        }
        html += "<table class=\"history\">\n<colgroup><col class=\"when\"/><col class=\"user\"/><col class=\"subject\"/>"
        html += "<col class=\"field\"/><col class=\"change\"/><col class=\"reason\"/></colgroup>\n"
        html += "<thead><tr><th>Time</th><th>User</th><th>Trip / subject</th><th>Field</th><th>Old → new</th>"
        html += "<th>Reason</th></tr></thead>\n<tbody>\n"
        for revision in report.revisions {
            let subject = revision.tripID.map { "trip \($0)" } ?? revision.subject
            let time = calendar.localTime(revision.time)
            let source = revision.timeSource == "gps" ? "" : " (\(revision.timeSource) clock)"
            html += "<tr class=\"revision\" data-id=\"\(revision.id)\">"
            html += "<td title=\"\(revision.time.iso8601(fractionDigits: 0))\">\(escape(time.description + source))</td>"
            html += "<td>\(escape(revision.user))</td><td>\(escape(subject))</td><td>\(escape(revision.field))</td>"
            let change = "\(multiline(revision.oldValue ?? "—")) → \(multiline(revision.newValue ?? "—"))"
            html += "<td class=\"text\">\(change)</td>"
            html += "<td class=\"text\">\(multiline(revision.reason ?? ""))</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n</section>\n"
    }

    /// (d) A map of every trip that is not deleted and has points, two per row; then, for each trip that is not
    /// deleted and whose route is not kept, a line saying so instead of a map (no drawing, no frame).
    static func maps(_ report: MileageReport, rows: [ReportRow]) -> String {
        var figures = ""
        var routeless = ""
        for (entry, row) in zip(report.trips, rows) where entry.trip.counts {
            let trip = entry.trip
            if let note = trip.route.reportNote {
                routeless += "<li class=\"no-route \(trip.route)\" id=\"route-\(trip.id)\">"
                routeless += "\(escape(row.caption)): \(escape(note))</li>\n"
                continue
            }
            let coordinates = entry.drawableSegments.map { $0.map(\.coordinate) }
            guard let map = TrackMap(segments: coordinates, places: trip.mapPlaces) else { continue }
            figures += "<figure class=\"map\" id=\"map-\(trip.id)\">"
            figures += map.svg(title: "Track of trip \(trip.id)")
            figures += "<figcaption>\(escape(row.caption))</figcaption></figure>\n"
        }
        var html = "<section class=\"maps-section\">\n<h2>Maps</h2>\n"
        if figures.isEmpty {
            html += "<p class=\"empty\">No recorded tracks in this period.</p>\n"
        } else {
            html += "<div class=\"maps\">\n\(figures)</div>\n"
        }
        if !routeless.isEmpty {
            html += "<ul class=\"no-route\">\n\(routeless)</ul>\n"
        }
        return html + "</section>\n"
    }

    /// (e) The chain head and how to check it.
    static func footer(_ report: MileageReport) -> String {
        var html = "<footer>\n<p>"
        if let head = report.chainHead, !head.isEmpty {
            html += "Chain head: <code class=\"chain-head\">\(escape(head))</code>. "
        } else {
            html += "The log has no chain head yet. "
        }
        html += "Check that the log has not been altered with <code>trackctl verify</code>.</p>\n</footer>\n"
        return html
    }

    /// Escaped text.
    static func escape(_ text: String) -> String {
        MarkupText.escape(text)
    }

    /// Escaped text with its line breaks (CRLF, CR or LF) as `<br/>`.
    static func multiline(_ text: String) -> String {
        var lines = [""]
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { afterCarriageReturn = scalar == "\r" }
            if scalar == "\n" && afterCarriageReturn { continue }
            if scalar == "\r" || scalar == "\n" {
                lines.append("")
            } else {
                lines[lines.count - 1].unicodeScalars.append(scalar)
            }
        }
        return lines.map(escape).joined(separator: "<br/>")
    }
}
