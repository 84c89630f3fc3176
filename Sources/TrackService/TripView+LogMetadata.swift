import Logging
import TrackCore

extension TripView {
    /// The journal's fields of a trip, the same for its start, resume and end (docs/logging.md): `TRIP` and
    /// `TRIP_ID`, `KIND`, `PURPOSE` (empty when none), `DISTANCE_M` (whole metres), `START` and `END` (`none` until
    /// known).
    var logMetadata: Logger.Metadata {
        [
            "trip": "\(number)", "trip_id": "\(number)", "kind": "\(kind)", "purpose": "\(purpose ?? "")",
            "distance_m": "\(Int(distance.rounded()))",
            "start": "\(start.map { "\($0)" } ?? "none")", "end": "\(end.map { "\($0)" } ?? "none")",
        ]
    }
}
