import TrackCore

/// The totals lines every format prints below the trips: business, private, unclassified (only when the report
/// has such trips) and all, in tenths of the profile's unit from `MileageReport.totals`, with the number of trips.
/// A form that keeps commutes apart (the Fahrtenbuch) has a `commute` line after `private`, which then counts the
/// other private trips.
struct ReportSummary: Sendable {
    /// One totals line.
    struct Line: Sendable, Hashable {
        /// `business`, `private`, `commute`, `unclassified` or `all`.
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

    /// The totals of `report`; with `commutesApart`, the commutes in a line of their own.
    init(_ report: MileageReport, commutesApart: Bool = false) {
        let totals = report.totals
        let counted = report.trips.map(\.trip).filter(\.counts)
        func count(_ kind: TripKind) -> Int { counted.count { $0.kind == kind } }
        var lines = [Line(kind: "business", tenths: totals.business, trips: count(.business))]
        let commutes = counted.count(where: \.commute)
        if commutesApart && commutes > 0 {
            lines.append(Line(kind: "private", tenths: totals.private - totals.commute, trips: count(.private) - commutes))
            lines.append(Line(kind: "commute", tenths: totals.commute, trips: commutes))
        } else {
            lines.append(Line(kind: "private", tenths: totals.private, trips: count(.private)))
        }
        if totals.unclassified != 0 || count(.unclassified) > 0 {
            lines.append(Line(kind: "unclassified", tenths: totals.unclassified, trips: count(.unclassified)))
        }
        lines.append(Line(kind: "all", tenths: totals.all, trips: totals.trips))
        self.lines = lines
    }
}
