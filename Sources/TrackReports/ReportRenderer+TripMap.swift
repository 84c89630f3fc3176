import TrackCore

extension ReportRenderer {
    /// A trip's map as the printable report draws it, or the sentence that says why there is none.
    public enum TripMapResult: Sendable, Equatable {
        /// A standalone SVG document.
        case svg(String)
        /// No map: the trip is not in the report, was deleted, has no recorded track, or its route was not kept.
        case none(String)
    }

    /// The map of trip `id` in `report` (the driver's page shows it on the trip's screen).
    public static func tripMap(_ id: TripID, in report: MileageReport) -> TripMapResult {
        guard let entry = report.trips.first(where: { $0.trip.id == id }) else {
            return .none("trip \(id) is not in the log's report of \(report.periodTitle)")
        }
        let trip = entry.trip
        guard trip.counts else { return .none("trip \(id) was deleted") }
        if let note = trip.route.reportNote { return .none("no map: \(note)") }
        let coordinates = entry.drawableSegments.map { $0.map(\.coordinate) }
        guard let map = TrackMap(segments: coordinates, places: trip.mapPlaces) else {
            return .none("no map: trip \(id) has no recorded track (typed in by hand, or no fix while it ran)")
        }
        return .svg("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + map.svg(title: "Track of trip \(id)", unit: report.profile.distanceUnit) + "\n")
    }
}
