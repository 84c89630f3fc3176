import FoundationEssentials
import TrackCore

/// The trips of the mileage log as a GeoJSON `FeatureCollection` (RFC 7946), for map tools and GIS.
///
/// - One `Feature` per trip, deleted ones included (property `state` = `deleted`, as in the CSV) so that a
///   consumer can filter; the feature's `id` is the trip's number.
/// - Geometry: a `LineString` for a track of one segment, a `MultiLineString` for several (a new segment after
///   each outage), `null` for a trip without points. Positions are `[longitude, latitude]` (WGS 84, no `crs`
///   member), rounded to 6 decimals (about 10 cm).
/// - A segment of a single point becomes a line of that point twice: RFC 7946 asks for two or more positions,
///   and repeating the point keeps every recorded position and the same segments as the GPX and the maps; the
///   line has no length, so it adds nothing to a measured distance.
/// - Properties: the trip's fields as `LogTrip` encodes them in JSON (`purpose`, `odometer_start` in km,
///   `distance_m`…), and `date`, `start_local`, `end_local` (ISO 8601 with the zone's offset), `distance_km` (and
///   `distance_mi` for a profile in miles)
///   (the reported figure, as in the CSV), `driver`, `plate`, `company`, `time_zone`, `notes`.
/// - Places: `start_place` and `end_place` are the names of the named places the trip started and ended at (text,
///   in place of `LogTrip`'s objects), `start_address` and `end_address` their addresses; each is left out when the
///   trip has no such place or address. They are shown as the trip carries them, whatever its route.
/// - A trip whose route is not kept keeps its `Feature`, as a trip without points does: `geometry` is `null`
///   whatever points its entry carries, `start_position` and `end_position` are left out, `route` is `withheld`
///   or `erased`, and `notes` says so (`route not kept (private trip, privacy mode)`, `route erased`).
public enum GeoJSONExport {
    /// The GeoJSON text of `report` (keys sorted, so the same report gives the same text).
    public static func render(_ report: MileageReport) throws(ReportError) -> String {
        let calendar = try LocalCalendar(profile: report.profile)
        var features: [JSONValue] = []
        for entry in report.trips {
            features.append(try feature(entry, report: report, calendar: calendar))
        }
        let collection = JSONValue.object(["type": .string("FeatureCollection"), "features": .array(features)])
        return try encode(collection, what: "the feature collection")
    }

    /// One trip's `Feature`.
    static func feature(_ entry: ReportTrip, report: MileageReport, calendar: LocalCalendar) throws(ReportError) -> JSONValue {
        let trip = entry.trip
        var properties = try tripProperties(trip)
        let row = ReportRow(trip, calendar: calendar)
        properties["date"] = .optional(row.date?.description)
        properties["start_local"] = .optional(trip.start.map { localISO8601(calendar.localTime($0)) })
        properties["end_local"] = .optional(trip.end.map { localISO8601(calendar.localTime($0)) })
        properties["distance_km"] = .number(Double(row.distanceTenths) / 10)
        // A profile in miles: the figure its reports print, beside the kilometres programs read.
        if report.profile.distanceUnit == .miles {
            properties["distance_mi"] = .number(Double(trip.reportedTenths(in: .miles).distance) / 10)
        }
        properties["driver"] = .optional(report.profile.driver)
        properties["plate"] = .optional(report.profile.plate)
        properties["company"] = .optional(report.profile.company)
        properties["time_zone"] = .string(calendar.identifier)
        properties["notes"] = .array(row.notes.map(JSONValue.string))
        properties["start_place"] = trip.startPlace.map { .string($0.name) }
        properties["start_address"] = trip.startPlace?.address.map(JSONValue.string)
        properties["end_place"] = trip.endPlace.map { .string($0.name) }
        properties["end_address"] = trip.endPlace?.address.map(JSONValue.string)
        if !trip.route.isKept {
            properties["route"] = .string(trip.route.rawValue)
            properties["start_position"] = nil
            properties["end_position"] = nil
        }
        return .object(["type": .string("Feature"), "id": .integer(trip.id.rawValue), "geometry": geometry(entry),
                        "properties": .object(properties)])
    }

    /// `LineString`, `MultiLineString` or `null` (no drawable point, or a route that is not kept).
    static func geometry(_ entry: ReportTrip) -> JSONValue {
        let lines = entry.drawableSegments.map { segment -> JSONValue in
            var positions = segment.map(position)
            if positions.count == 1 { positions.append(positions[0]) }
            return .array(positions)
        }
        switch lines.count {
        case 0: return .null
        case 1: return .object(["type": .string("LineString"), "coordinates": lines[0]])
        default: return .object(["type": .string("MultiLineString"), "coordinates": .array(lines)])
        }
    }

    /// `[longitude, latitude]`, 6 decimals.
    static func position(_ point: TrackPoint) -> JSONValue {
        func rounded(_ value: Double) -> JSONValue { .number((value * 1e6).rounded() / 1e6) }
        return .array([rounded(point.coordinate.longitude), rounded(point.coordinate.latitude)])
    }

    /// The trip as `LogTrip`'s own JSON, as an object.
    static func tripProperties(_ trip: LogTrip) throws(ReportError) -> [String: JSONValue] {
        do {
            let data = try JSONEncoder().encode(trip)
            if case .object(let object) = try JSONDecoder().decode(JSONValue.self, from: data) { return object }
        } catch {
            throw .invalidNumber("trip \(trip.id): \(error)")
        }
        return [:]
    }

    /// `2026-11-22T08:05:09+02:00`.
    static func localISO8601(_ time: LocalTime) -> String {
        "\(time.dateText)T\(time.timeWithSecondsText)\(time.offsetText)"
    }

    /// Compact JSON text with sorted keys.
    static func encode(_ value: JSONValue, what: String) throws(ReportError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw .invalidNumber("\(what): \(error)")
        }
    }
}
