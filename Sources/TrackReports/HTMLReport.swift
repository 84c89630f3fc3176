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
    /// The HTML text of `report` in its country's form and language (`ReportForm`); throws for a profile whose time
    /// zone is unknown.
    public static func render(_ report: MileageReport) throws(ReportError) -> String {
        let calendar = try LocalCalendar(profile: report.profile)
        let form = ReportForm(country: report.profile.country)
        let labels = form.labels
        let columns = form.columns.filter { $0 != .amount || report.allowance != nil }
        // People's changes (not trackd's own, not a confirmation), entries added by hand aside.
        let changed = form.marksChanges ? LogRevision.changedEntries(report.revisions) : []
        let rows = report.trips.map { entry in
            var row = ReportRow(entry.trip, calendar: calendar, unit: report.profile.distanceUnit, labels: labels)
            if changed.contains(entry.trip.id) { row.notes.append(labels.notes.changed) }
            return row
        }
        var html = "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"\(labels.code)\">\n<head>\n"
        html += "<meta charset=\"utf-8\"/>\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
        html += "<meta name=\"generator\" content=\"\(escape(report.generator))\"/>\n"
        html += "<title>\(escape(labels.title)) — \(escape(labels.periodTitle(report)))</title>\n"
        // A form wider than a portrait page's twelve columns prints on landscape pages.
        html += "<style>\n\(styleSheet)\n</style>\n</head>\n" + (columns.count > 12 ? "<body class=\"wide\">\n" : "<body>\n")
        html += header(report, calendar: calendar, labels: labels)
        html += tripTable(report, rows: rows, columns: columns, labels: labels)
        html += allowance(report, labels: labels)
        html += years(report, labels: labels, commutesApart: form.commutesApart)
        html += check(report, labels: labels)
        html += history(report, calendar: calendar, labels: labels)
        html += maps(report, rows: rows, labels: labels)
        html += footer(report, labels: labels)
        html += "</body>\n</html>\n"
        return html
    }

    /// (a) The title and the facts about the log and the report.
    static func header(_ report: MileageReport, calendar: LocalCalendar, labels: ReportLabels) -> String {
        let profile = report.profile
        let generated = calendar.localTime(report.generatedAt)
        var period = labels.periodTitle(report)
        if let from = report.from, let until = report.until {
            period += " " + labels.periodRange(from, until.previous)
        }
        var facts: [(String, String)] = [
            (labels.driver, profile.driver ?? "—"), (labels.plate, profile.plate ?? "—"),
            (labels.company, profile.company ?? "—"), (labels.timeZone, calendar.identifier),
        ]
        if let car = profile.car {
            facts.append((labels.car, labels.carOwnership[car] ?? car.rawValue))
        }
        facts += [
            (labels.generated, "\(generated)\n\(report.generatedAt.iso8601(fractionDigits: 0)) (UTC)"),
            (labels.generatedBy, report.generator.isEmpty ? "trackd" : report.generator),
        ]
        if report.kind != .all {
            let kind = TripKind(rawValue: report.kind.rawValue).flatMap { labels.kinds[$0] } ?? report.kind.rawValue
            facts.append((labels.tripsOnly, labels.only(kind)))
        }
        var html = "<header>\n<h1>\(escape(labels.title))</h1>\n<p class=\"period\">\(escape(period))</p>\n<dl class=\"facts\">\n"
        for (term, value) in facts {
            html += "<dt>\(escape(term))</dt><dd>\(multiline(value))</dd>\n"
        }
        return html + "</dl>\n</header>\n"
    }

    /// (b) One row per trip, oldest first, in `columns`, and the totals.
    static func tripTable(_ report: MileageReport, rows: [ReportRow], columns: [ReportColumn], labels: ReportLabels) -> String {
        let allowance = report.allowance
        let unit = report.profile.distanceUnit.rawValue
        var html = "<section class=\"trips\">\n<h2>\(escape(labels.trips))</h2>\n<table class=\"trips\">\n<colgroup>"
        html += columns.map { "<col class=\"\(columnClass($0))\"/>" }.joined() + "</colgroup>\n<thead><tr>"
        for column in columns {
            let label = labels.columns[column] ?? column.rawValue
            let text = column.showsUnit ? (label.isEmpty ? unit : "\(label) \(unit)") : label
            html += (column.isNumeric ? "<th class=\"num\">" : "<th>") + escape(text) + "</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        if rows.isEmpty {
            html += "<tr><td colspan=\"\(columns.count)\" class=\"empty\">\(escape(labels.noTrips))</td></tr>\n"
        }
        for row in rows {
            html += tripRow(row, columns: columns, amount: allowance.map { $0.text(of: row.trip.id) ?? "" }, labels: labels)
        }
        html += "</tbody>\n<tfoot>\n"
        // The totals: a label across the columns before the first figure, each figure under its column.
        let figures: Set<ReportColumn> = [.distance, .businessDistance, .privateDistance, .commuteDistance, .amount]
        let lead = columns.firstIndex { figures.contains($0) } ?? columns.count
        // A form with a column for commutes totals them apart (and the other private trips without them).
        let summary = ReportSummary(report, commutesApart: columns.contains(.commuteDistance))
        for line in summary.lines {
            let kind = line.kind == "commute" ? labels.commute
                : TripKind(rawValue: line.kind).flatMap { labels.kinds[$0] } ?? line.kind
            let label = line.kind == "all" ? labels.allTrips : labels.totalOf(kind)
            html += "<tr class=\"total \(line.kind)\" data-kind=\"\(line.kind)\">"
            html += "<td colspan=\"\(lead)\">\(escape(label)) (\(escape(labels.tripCount(line.trips))))</td>"
            var blank = 0
            func flush() {
                if blank > 0 { html += "<td colspan=\"\(blank)\"></td>" }
                blank = 0
            }
            for column in columns[lead...] {
                let distance = labels.number(DistanceUnit.text(tenths: line.tenths))
                switch column {
                case .distance:
                    flush()
                    html += "<td class=\"num km\">\(distance)</td>"
                case .businessDistance, .privateDistance, .commuteDistance:
                    flush()
                    // Each kind's line under its column, and all of them in the line of all trips.
                    let kind = column == .businessDistance ? "business" : column == .privateDistance ? "private" : "commute"
                    let tenths = line.kind == kind ? line.tenths
                        : line.kind == "all" ? summary.lines.first { $0.kind == kind }?.tenths : nil
                    let text = tenths.map { labels.number(DistanceUnit.text(tenths: $0)) } ?? ""
                    html += "<td class=\"num km\">\(text)</td>"
                case .amount:
                    flush()
                    let total = line.kind == "business" || line.kind == "all"
                        ? allowance.map { labels.number($0.currency.text(minor: $0.total)) } ?? "" : ""
                    html += "<td class=\"num amount\">\(escape(total))</td>"
                default:
                    blank += 1
                }
            }
            flush()
            html += "</tr>\n"
        }
        html += "</tfoot>\n</table>\n"
        // Where the odometer readings came from, for the letters after them (only the sources the table shows).
        let sources = OdometerSource.allCases.filter { source in
            rows.contains { $0.trip.odometerStartSource == source || $0.trip.odometerEndSource == source }
        }
        if !sources.isEmpty {
            html += "<p class=\"sources\">\(escape(labels.odometerReadings)): "
            html += sources.map { source in
                let mark = labels.sources[source] ?? (source.rawValue, source.rawValue)
                return "\(escape(mark.letter)) \(escape(mark.text))"
            }.joined(separator: " · ") + ".</p>\n"
        }
        return html + "</section>\n"
    }

    /// The `col` element's class of `column` (its width in the style sheet).
    static func columnClass(_ column: ReportColumn) -> String {
        switch column {
        case .number: "no"
        case .date: "date"
        case .start: "start"
        case .end: "end"
        case .odometerStart, .odometerEnd: "odometer"
        case .distance, .businessDistance, .privateDistance, .commuteDistance: "km"
        case .amount: "amount"
        case .kind: "kind"
        case .purpose: "purpose"
        case .whereabouts, .destination: "where"
        case .customer: "customer"
        case .detours: "detours"
        case .notes: "notes"
        }
    }

    /// One trip's row: deleted ones struck through with the reason, a business trip without purpose highlighted;
    /// with an `amount` column, the trip's allowance.
    static func tripRow(_ row: ReportRow, columns: [ReportColumn], amount: String? = nil, labels: ReportLabels) -> String {
        let trip = row.trip
        var classes = ["trip", trip.kind.rawValue]
        if trip.commute { classes.append("commute") }
        if trip.state == .deleted { classes.append("deleted") }
        if trip.lacksPurpose { classes.append("lacks-purpose") }
        var html = "<tr class=\"\(classes.joined(separator: " "))\" id=\"trip-\(trip.id)\">"
        for column in columns {
            switch column {
            case .number: html += "<td class=\"num\">\(trip.id)</td>"
            case .date: html += "<td class=\"fixed\">\(row.dateText)</td>"
            case .start: html += "<td class=\"fixed\" title=\"\(row.startUTC)\">\(row.startTime)</td>"
            case .end: html += "<td class=\"fixed\" title=\"\(row.endUTC)\">\(row.endTime)</td>"
            case .odometerStart:
                let mark = sourceMark(row.odometerStart.isEmpty ? nil : trip.odometerStartSource, labels: labels)
                html += "<td class=\"num\">\(labels.number(row.odometerStart))\(mark)</td>"
            case .odometerEnd:
                let mark = sourceMark(row.odometerEnd.isEmpty ? nil : trip.odometerEndSource, labels: labels)
                html += "<td class=\"num\">\(labels.number(row.odometerEnd))\(mark)</td>"
            case .distance: html += "<td class=\"num km\">\(labels.number(row.distance))</td>"
            case .businessDistance, .privateDistance, .commuteDistance:
                // A commute in its own column, not among the private trips.
                let shows = switch column {
                case .businessDistance: trip.kind == .business
                case .privateDistance: trip.kind == .private && !trip.commute
                default: trip.commute
                }
                html += "<td class=\"num km\">\(shows ? labels.number(row.distance) : "")</td>"
            case .detours: html += "<td class=\"text\">\(multiline(trip.detour ?? ""))</td>"
            case .amount: html += "<td class=\"num amount\">\(escape(labels.number(amount ?? "")))</td>"
            case .kind:
                let kind = labels.kinds[trip.kind] ?? trip.kind.rawValue
                html += "<td>\(escape(trip.commute ? "\(kind) (\(labels.commute))" : kind))</td>"
            case .purpose: html += "<td class=\"text\">\(multiline(trip.purpose ?? ""))</td>"
            case .whereabouts:
                var whereabouts = [trip.customer, trip.destination].compactMap { $0 }.filter { !$0.isEmpty }.map(multiline)
                if let fromTo = fromTo(trip) { whereabouts.append(fromTo) }
                html += "<td class=\"text\">\(whereabouts.joined(separator: "<br/>"))</td>"
            case .destination:
                // The destination typed in; else the named place the trip ended at, with its address; and the way.
                var parts: [String] = []
                if let destination = trip.destination, !destination.isEmpty {
                    parts.append(multiline(destination))
                } else if let place = trip.endPlace {
                    parts.append(multiline(place.name + (place.address.map { ", \($0)" } ?? "")))
                }
                if let fromTo = fromTo(trip) { parts.append(fromTo) }
                html += "<td class=\"text\">\(parts.joined(separator: "<br/>"))</td>"
            case .customer: html += "<td class=\"text\">\(multiline(trip.customer ?? ""))</td>"
            case .notes:
                let notes = row.notes.map { note in
                    note == labels.notes.purposeMissing ? "<span class=\"missing\">\(escape(note))</span>" : multiline(note)
                }
                html += "<td class=\"notes text\">\(notes.joined(separator: "<br/>"))</td>"
            }
        }
        return html + "</tr>\n"
    }

    /// The letter after an odometer reading that says where it came from (in English `C` the car, `D` the dashboard,
    /// `G` GPS); nothing for entries from before the log kept it.
    static func sourceMark(_ source: OdometerSource?, labels: ReportLabels) -> String {
        guard let source, let mark = labels.sources[source] else { return "" }
        return " <span class=\"source \(source.rawValue)\" title=\"\(escape(mark.text))\">\(escape(mark.letter))</span>"
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

    /// The allowance of the period's business trips, the tax year's to its end, and the rules that made them (with a
    /// country in the profile; `docs/countries.md`).
    static func allowance(_ report: MileageReport, labels: ReportLabels) -> String {
        guard let allowance = report.allowance else { return "" }
        let currency = allowance.currency
        var html = "<section class=\"allowance\">\n<h2>\(escape(labels.allowance(allowance.country)))</h2>\n"
        html += "<p class=\"allowance-total\">\(escape(labels.thisPeriod)): "
        html += "<strong>\(escape(labels.number(currency.text(minor: allowance.total))))</strong>"
        for year in allowance.taxYears {
            html += " · \(escape(labels.taxYearSpan(year.from, year.through))): "
                + escape(labels.number(currency.text(minor: year.total)))
        }
        html += "</p>\n"
        if allowance.unconfirmed {
            html += "<p class=\"unconfirmed\">\(escape(labels.unconfirmedRates(allowance.checkedThrough)))</p>\n"
        }
        if !allowance.rates.isEmpty {
            let rules = allowance.rates.map { labels.ruleText($0, of: allowance) }
            html += "<ul class=\"rules\">\n" + rules.map { "<li>\(escape($0))</li>\n" }.joined() + "</ul>\n"
        }
        return html + "</section>\n"
    }

    /// Each tax year the period touches, to the period's end or its own, as the tax return asks for it: the
    /// distances by kind (with `commutesApart`, the commutes apart from the other private trips), the business share
    /// and the allowance (with a country in the profile).
    static func years(_ report: MileageReport, labels: ReportLabels, commutesApart: Bool = false) -> String {
        report.years.map { year(report, year: $0, labels: labels, commutesApart: commutesApart) }.joined()
    }

    /// One tax year's section.
    static func year(_ report: MileageReport, year: YearSummary, labels: ReportLabels, commutesApart: Bool) -> String {
        let unit = report.profile.distanceUnit.rawValue
        func distance(_ tenths: Int64) -> String { labels.number(DistanceUnit.text(tenths: tenths)) + " " + unit }
        var html = "<section class=\"year\">\n<h2>\(escape(labels.yearTitle(year.from, year.through)))</h2>\n"
        html += "<p>\(escape(labels.yearIntroduction))</p>\n<table class=\"year\">\n<tbody>\n"
        var lines: [(String, String, String)] = [
            ("business", labels.kinds[.business] ?? "business", distance(year.totals.business)),
        ]
        if commutesApart && year.totals.commute != 0 {
            lines.append(("private", labels.kinds[.private] ?? "private", distance(year.totals.private - year.totals.commute)))
            lines.append(("commute", labels.commute, distance(year.totals.commute)))
        } else {
            lines.append(("private", labels.kinds[.private] ?? "private", distance(year.totals.private)))
        }
        if year.totals.unclassified != 0 {
            lines.append(("unclassified", labels.kinds[.unclassified] ?? "unclassified", distance(year.totals.unclassified)))
        }
        lines.append(("all", "\(labels.allTrips) (\(labels.tripCount(year.totals.trips)))", distance(year.totals.all)))
        lines.append(("share", labels.businessShare, labels.number(year.businessShareText)))
        if let amount = year.amount, let currency = report.profile.country?.currency {
            lines.append(("amount", labels.amount, labels.number(currency.text(minor: amount))))
        }
        for (key, label, value) in lines {
            html += "<tr class=\"\(key)\"><th>\(escape(label))</th><td class=\"num\">\(escape(value))</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n</section>\n"
    }

    /// What `trackctl check` finds in the period: each finding with its trip and its fix, or that there is none.
    static func check(_ report: MileageReport, labels: ReportLabels) -> String {
        guard let findings = report.findings else { return "" }
        var html = "<section class=\"check\">\n<h2>\(escape(labels.check))</h2>\n"
        guard !findings.isEmpty else {
            return html + "<p class=\"clean\">\(escape(labels.checkClean)) (<code>trackctl check</code>).</p>\n</section>\n"
        }
        html += "<ul class=\"findings\">\n"
        for finding in findings {
            let subject = finding.trip.map { "\(labels.trip) \($0)" } ?? labels.profile
            // The rule's name in the report's language first, where the table names it.
            let rule = labels.rules[finding.rule].map { "\(escape($0)) — " } ?? ""
            html += "<li class=\"finding \(finding.rule.rawValue)\"><strong>\(escape(subject))</strong>: \(rule)\(escape(finding.problem)). "
            html += "<span class=\"why\">\(escape(finding.why)).</span> <span class=\"fix\">\(escape(labels.fix)): "
            html += "<code>\(escape(finding.fix))</code></span></li>\n"
        }
        return html + "</ul>\n</section>\n"
    }

    /// (c) Every change, oldest first.
    static func history(_ report: MileageReport, calendar: LocalCalendar, labels: ReportLabels) -> String {
        var html = "<section class=\"history\">\n<h2>\(escape(labels.history))</h2>\n"
        guard !report.revisions.isEmpty else {
            return html + "<p class=\"empty\">\(escape(labels.noChanges))</p>\n</section>\n"
        }
        let heads = labels.historyColumns
        html += "<table class=\"history\">\n<colgroup><col class=\"when\"/><col class=\"user\"/><col class=\"subject\"/>"
        html += "<col class=\"field\"/><col class=\"change\"/><col class=\"reason\"/></colgroup>\n"
        html += "<thead><tr>" + [heads.time, heads.user, heads.subject, heads.field, heads.change, heads.reason]
            .map { "<th>\(escape($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for revision in report.revisions {
            let subject = revision.tripID.map(labels.historyTrip) ?? revision.subject
            let time = calendar.localTime(revision.time)
            let source = revision.timeSource == "gps" ? "" : labels.clock(revision.timeSource)
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
    static func maps(_ report: MileageReport, rows: [ReportRow], labels: ReportLabels) -> String {
        var figures = ""
        var routeless = ""
        for (entry, row) in zip(report.trips, rows) where entry.trip.counts {
            let trip = entry.trip
            if let note = labels.notes.route(trip.route) {
                routeless += "<li class=\"no-route \(trip.route)\" id=\"route-\(trip.id)\">"
                routeless += "\(escape(row.caption)): \(escape(note))</li>\n"
                continue
            }
            let coordinates = entry.drawableSegments.map { $0.map(\.coordinate) }
            guard let map = TrackMap(segments: coordinates, places: trip.mapPlaces) else { continue }
            figures += "<figure class=\"map\" id=\"map-\(trip.id)\">"
            figures += map.svg(title: labels.trackOf(trip.id), unit: report.profile.distanceUnit)
            figures += "<figcaption>\(escape(row.caption))</figcaption></figure>\n"
        }
        var html = "<section class=\"maps-section\">\n<h2>\(escape(labels.maps))</h2>\n"
        if figures.isEmpty {
            html += "<p class=\"empty\">\(escape(labels.noTracks))</p>\n"
        } else {
            html += "<div class=\"maps\">\n\(figures)</div>\n"
        }
        if !routeless.isEmpty {
            html += "<ul class=\"no-route\">\n\(routeless)</ul>\n"
        }
        return html + "</section>\n"
    }

    /// (e) The chain head and how to check it.
    static func footer(_ report: MileageReport, labels: ReportLabels) -> String {
        var html = "<footer>\n<p>"
        if let head = report.chainHead, !head.isEmpty {
            html += "\(escape(labels.chainHead)): <code class=\"chain-head\">\(escape(head))</code>. "
        } else {
            html += "\(escape(labels.noChainHead)) "
        }
        html += "\(labels.verify)</p>\n</footer>\n"
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
