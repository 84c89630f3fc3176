import TrackCore

extension TripRoute {
    /// What every report says in place of a route that is not kept; `nil` for a recorded one.
    ///
    /// Such a trip is shown the way the law wants a private trip shown: its date, times, odometer readings,
    /// kilometres and kind, with this note, and no track, no positions and no map.
    var reportNote: String? {
        ReportLabels.english.notes.route(self)
    }
}
