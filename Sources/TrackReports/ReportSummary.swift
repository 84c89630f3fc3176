import TrackCore

/// The totals lines every format prints below the trips: business, private, unclassified (only when the report
/// has such trips) and all, in tenths of the profile's unit from `MileageReport.totals`, with the number of trips.
struct ReportSummary: Sendable {
    /// One totals line.
    struct Line: Sendable, Hashable {
        /// `business`, `private`, `unclassified` or `all`.
        var kind: String
        /// The distance, in tenths of the unit.
        var tenths: Int64
        /// How many trips (deleted ones excluded) make it up.
        var trips: Int

        /// `12 trips`, `1 trip`.
        var tripsText: String { trips == 1 ? "1 trip" : "\(trips) trips" }
    }

    /// The lines, in print order.
    let lines: [Line]

    /// The totals of `report`.
    init(_ report: MileageReport) {
        let totals = report.totals
        let counted = report.trips.map(\.trip).filter(\.counts)
        func count(_ kind: TripKind) -> Int { counted.count { $0.kind == kind } }
        var lines = [Line(kind: "business", tenths: totals.business, trips: count(.business)),
                     Line(kind: "private", tenths: totals.private, trips: count(.private))]
        if totals.unclassified != 0 || count(.unclassified) > 0 {
            lines.append(Line(kind: "unclassified", tenths: totals.unclassified, trips: count(.unclassified)))
        }
        lines.append(Line(kind: "all", tenths: totals.all, trips: totals.trips))
        self.lines = lines
    }
}
