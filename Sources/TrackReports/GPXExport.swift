import TrackCore

/// The tracks of the mileage log as GPX 1.1, for GPS software and map services.
///
/// The document follows the GPX 1.1 schema's element order (its `xsd:sequence`s): `metadata` (name, desc, author,
/// time, bounds), then one `trk` per trip that is not deleted and has at least one point (name, desc, number,
/// type, then one `trkseg` per segment: a new segment after each outage). A track's description begins with the
/// named places the trip started and ended at when it has any (`from Home to Example Ltd; customer: …; 14.2 km`).
/// Points carry latitude and longitude with 7 decimals (about a centimetre) and their GPS time in UTC. Points
/// without finite coordinates on the globe are left out; a longitude of exactly 180° is written as −180° (the
/// schema excludes 180).
///
/// A trip whose route is not kept (`TripRoute.withheld`, `.erased`) gets no `trk` and no point, and adds nothing to
/// the bounds, whatever points its entry carries: an XML comment in its place names it (number, local date,
/// kilometres, kind) and says why (`Trip 42 · 2026-10-24 · 9.9 km · private: route not kept (…)`), so a reader of
/// the file sees the trip is missing on purpose while GPS software and the schema ignore it.
public enum GPXExport {
    /// The GPX 1.1 namespace.
    public static let namespace = "http://www.topografix.com/GPX/1/1"

    /// The GPX text of `report`.
    public static func render(_ report: MileageReport) -> String {
        var xml = head(report)
        let drawn = report.trips.filter(\.trip.counts).flatMap(\.drawableSegments)
        xml += metadata(report, bounds: Bounds.of(drawn.lazy.joined().map(\.coordinate)))
        // The local dates of the comments; without a known time zone, the date the log keeps, if any.
        let calendar = try? LocalCalendar(profile: report.profile)
        for entry in report.trips where entry.trip.counts {
            if let note = entry.trip.route.reportNote {
                // Numbers, a date, a kind and a fixed note, no free text: nothing that could hold `--`.
                let date = calendar.map { ReportRow(entry.trip, calendar: $0).date } ?? entry.trip.date
                xml += "  <!-- \(ReportRow.caption(entry.trip, date: date, unit: report.profile.distanceUnit)): \(note) -->\n"
                continue
            }
            let segments = entry.drawableSegments
            guard !segments.isEmpty else { continue }
            xml += track(entry.trip, segments: segments, unit: report.profile.distanceUnit)
        }
        xml += "</gpx>\n"
        return xml
    }

    /// Whether `entry` gets a `trk`: it counts, its route is kept, and it has a point to draw.
    public static func draws(_ entry: ReportTrip) -> Bool {
        entry.trip.counts && entry.trip.route.reportNote == nil && !entry.drawableSegments.isEmpty
    }

    /// `<metadata>`: the period, the profile, when the file was made and the bounds of all tracks.
    static func metadata(_ report: MileageReport, bounds: Bounds?) -> String {
        let profile = report.profile
        var xml = "  <metadata>\n"
        xml += element("name", "Mileage log — \(report.periodTitle)", indent: 4)
        let details = [profile.plate.map { "plate \($0)" }, profile.company].compactMap { $0 }.filter { !$0.isEmpty }
        if !details.isEmpty {
            xml += element("desc", details.joined(separator: ", "), indent: 4)
        }
        if let driver = profile.driver, !driver.isEmpty {
            xml += "    <author>\n" + element("name", driver, indent: 6) + "    </author>\n"
        }
        xml += element("time", timeText(report.generatedAt), indent: 4)
        if let bounds {
            xml += "    <bounds minlat=\"\(degrees(bounds.south))\" minlon=\"\(degrees(bounds.west))\" "
                + "maxlat=\"\(degrees(bounds.north))\" maxlon=\"\(degrees(bounds.east))\"/>\n"
        }
        xml += "  </metadata>\n"
        return xml
    }

    /// The box around the points drawn, in the schema's longitudes.
    struct Bounds {
        var south: Double, north: Double, west: Double, east: Double

        init(_ coordinate: Coordinate) {
            south = coordinate.latitude
            north = south
            west = GPXExport.longitude(coordinate.longitude)
            east = west
        }

        mutating func include(_ coordinate: Coordinate) {
            south = min(south, coordinate.latitude)
            north = max(north, coordinate.latitude)
            west = min(west, GPXExport.longitude(coordinate.longitude))
            east = max(east, GPXExport.longitude(coordinate.longitude))
        }

        /// `bounds` grown to take in `coordinate` (the box of that one point when there are none yet).
        static func including(_ coordinate: Coordinate, in bounds: Bounds?) -> Bounds {
            guard var bounds else { return Bounds(coordinate) }
            bounds.include(coordinate)
            return bounds
        }

        /// The bounds of `coordinates`, `nil` for none.
        static func of(_ coordinates: some Sequence<Coordinate>) -> Bounds? {
            coordinates.reduce(nil) { including($1, in: $0) }
        }
    }

    /// The XML declaration and the opening `<gpx>`.
    static func head(_ report: MileageReport) -> String {
        let creator = report.generator.isEmpty ? "trackd" : report.generator
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<gpx version=\"1.1\" creator=\"\(MarkupText.escape(creator))\" xmlns=\"\(namespace)\">\n"
    }

    /// One `<trk>` with its segments.
    static func track(_ trip: LogTrip, segments: [[TrackPoint]], unit: DistanceUnit = .kilometres) -> String {
        var xml = trackHead(trip, unit: unit)
        for segment in segments {
            xml += "    <trkseg>\n"
            for point in segment { xml += trackPoint(point) }
            xml += "    </trkseg>\n"
        }
        xml += "  </trk>\n"
        return xml
    }

    /// `<trk>` and what comes before its segments.
    static func trackHead(_ trip: LogTrip, unit: DistanceUnit) -> String {
        var xml = "  <trk>\n"
        xml += element("name", trackName(trip), indent: 4)
        var description = [trip.placesSentence].compactMap { $0 }
        if let customer = trip.customer, !customer.isEmpty { description.append("customer: \(customer)") }
        if let destination = trip.destination, !destination.isEmpty { description.append("to: \(destination)") }
        description.append("\(DistanceUnit.text(tenths: trip.reportedTenths(in: unit).distance)) \(unit.rawValue)")
        if trip.gapCount > 0 { description.append(trip.gapCount == 1 ? "1 outage" : "\(trip.gapCount) outages") }
        xml += element("desc", description.joined(separator: "; "), indent: 4)
        xml += element("number", trip.id.description, indent: 4)
        xml += element("type", trip.kind.rawValue, indent: 4)
        return xml
    }

    /// One `<trkpt>` on a line of its own.
    static func trackPoint(_ point: TrackPoint) -> String {
        "      <trkpt lat=\"\(degrees(point.coordinate.latitude))\" lon=\"\(degrees(longitude(point.coordinate.longitude)))\">"
            + "<time>\(timeText(point.time))</time></trkpt>\n"
    }

    /// `Trip 12 — business: Customer visit`, or without the purpose when there is none.
    static func trackName(_ trip: LogTrip) -> String {
        let name = "Trip \(trip.id) — \(trip.kind.rawValue)"
        guard let purpose = trip.purpose, !purpose.isEmpty else { return name }
        return name + ": " + purpose
    }

    /// An element with escaped text on a line of its own.
    static func element(_ name: String, _ text: String, indent: Int) -> String {
        String(repeating: " ", count: indent) + "<\(name)>\(MarkupText.escape(text))</\(name)>\n"
    }

    /// `xsd:dateTime` in UTC: whole seconds when the time has no fraction, else milliseconds.
    static func timeText(_ time: UTCTime) -> String {
        time.iso8601(fractionDigits: time.nanosecondsSinceEpoch % UTCTime.nanosecondsPerSecond == 0 ? 0 : 3)
    }

    /// Degrees with 7 decimals.
    static func degrees(_ value: Double) -> String {
        DecimalText.fixed(value, digits: 7)
    }

    /// A longitude in the schema's range −180 ≤ lon < 180 (after rounding to 7 decimals).
    static func longitude(_ value: Double) -> Double {
        (value * 1e7).rounded() >= 180e7 ? value - 360 : value
    }
}
