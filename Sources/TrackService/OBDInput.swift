import TrackCore
import TrackInput

/// What the OBD-II service hands the tracker: which adapter it talks to now, and what the adapter reports.
public enum OBDInput: Sendable {
    /// The adapter trackd talks to from now on (at start, and after a reload changed it); `nil`: none.
    case adapter(OBDAddress?)
    /// An event of the adapter's source.
    case event(OBDSource.Event)
}
