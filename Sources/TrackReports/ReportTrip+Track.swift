import TrackCore

extension ReportTrip {
    /// The segments a map or track file can draw: points with finite coordinates on the globe (latitude −90…90,
    /// longitude −180…180) only, and segments left empty by that, or empty already, left out. None for a trip
    /// whose route is not kept (`TripRoute.withheld`, `.erased`), whatever points the entry carries.
    var drawableSegments: [[TrackPoint]] {
        guard trip.route.isKept else { return [] }
        return segments.map { $0.filter(\.coordinate.isDrawable) }.filter { !$0.isEmpty }
    }
}
