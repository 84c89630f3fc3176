import TrackCore

extension LogTrip {
    /// Whether the log keeps a track for the trip as a report draws it: a closed GPS trip.
    public var hasStoredTrack: Bool { source == .gps && state == .closed }
}
