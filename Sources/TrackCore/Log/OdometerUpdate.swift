
/// What recording a dashboard reading did to the log.
public struct OdometerUpdate: Sendable, Hashable, Codable {
    public var reading: OdometerReading
    /// The entry that makes a difference between the dashboard and the log visible, if there was one.
    public var entry: LogTrip?
    /// The calibration factor before and after, when it changed.
    public var calibrationBefore: Double?
    public var calibrationAfter: Double?
    /// Why the calibration did or did not change, for people.
    public var calibrationNote: String

    public init(reading: OdometerReading, entry: LogTrip?, calibrationBefore: Double?, calibrationAfter: Double?,
                calibrationNote: String) {
        self.reading = reading
        self.entry = entry
        self.calibrationBefore = calibrationBefore
        self.calibrationAfter = calibrationAfter
        self.calibrationNote = calibrationNote
    }

    enum CodingKeys: String, CodingKey {
        case reading, entry
        case calibrationBefore = "calibration_before"
        case calibrationAfter = "calibration_after"
        case calibrationNote = "calibration_note"
    }
}
