/// Where an odometer reading of the log came from, as the log records it beside each trip's start and end.
public enum OdometerSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// Read from the car itself at that moment (OBD-II, PID A6).
    case car
    /// A dashboard reading typed in (`trackctl odometer set`), or the entry such a reading made.
    case dashboard
    /// The log's own odometer carried on by the GPS distance (times the calibration).
    case gps
}
