import TrackCore

/// A trip's GPX written a point at a time, for a trip of any length: its points are read again for each pass (the
/// bounds, then the track) instead of being held.
extension GPXExport {
    /// Reads a trip's points in order, each with its segment number, as often as it is called.
    public typealias PointReader = ((_ point: TrackPoint, _ segment: Int) throws -> Void) throws -> Void

    /// Whether `entry` gets a `trk` (`draws`) when its points are those `points` reads (its own segments are not
    /// used): it counts, its route is kept, and one of the points can be drawn.
    public static func draws(_ entry: ReportTrip, points: PointReader) throws -> Bool {
        guard entry.trip.counts, entry.trip.route.reportNote == nil else { return false }
        struct Found: Error {}
        do {
            try points { point, _ in if point.coordinate.isDrawable { throw Found() } }
        } catch is Found {
            return true
        }
        return false
    }

    /// Writes to `output` the GPX of `report`'s one trip with the points `points` reads (the entry's own segments
    /// are not used): the text `render` makes of the entry with those points as its track. For a trip that `draws`.
    public static func write(_ report: MileageReport, points: PointReader, to output: (String) throws -> Void) throws {
        guard let entry = report.trips.first, report.trips.count == 1 else {
            preconditionFailure("GPXExport.write takes the report of one trip")
        }
        var bounds: Bounds?
        try points { point, _ in
            if point.coordinate.isDrawable { bounds = Bounds.including(point.coordinate, in: bounds) }
        }
        try output(head(report) + metadata(report, bounds: bounds))
        try output(trackHead(entry.trip, unit: report.profile.distanceUnit))
        var open: Int?
        try withoutActuallyEscaping(output) { output in
            try points { point, segment in
                guard point.coordinate.isDrawable else { return }
                if open != segment {
                    try output(open == nil ? "    <trkseg>\n" : "    </trkseg>\n    <trkseg>\n")
                    open = segment
                }
                try output(trackPoint(point))
            }
        }
        if open != nil { try output("    </trkseg>\n") }
        try output("  </trk>\n</gpx>\n")
    }
}
