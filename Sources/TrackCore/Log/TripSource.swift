/// Where an entry of the mileage log came from.
public enum TripSource: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Recorded by trackd from the GPS receiver.
    case gps
    /// Entered by hand.
    case manual
    /// Entered by hand from a regular-trip template.
    case regular
    /// Kilometres the dashboard shows but no trip recorded: made visible by an odometer reading.
    case unrecorded
    /// The log counted more than the dashboard: a negative correction made visible by an odometer reading.
    case correction

    public var description: String { rawValue }
}
