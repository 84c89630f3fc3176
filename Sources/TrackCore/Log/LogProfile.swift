/// Who and what the mileage log is about: one per log.
public struct LogProfile: Sendable, Hashable, Codable {
    public var driver: String?
    public var plate: String?
    public var company: String?
    /// The IANA time zone in which dates, weeks and months of the log are counted (`Europe/Tallinn`).
    public var timeZone: String
    /// The factor applied to measured GPS distance for new trips (from odometer readings; 1 until there are two).
    public var calibrationFactor: Double

    public init(driver: String? = nil, plate: String? = nil, company: String? = nil, timeZone: String = "UTC",
                calibrationFactor: Double = 1) {
        self.driver = driver
        self.plate = plate
        self.company = company
        self.timeZone = timeZone
        self.calibrationFactor = calibrationFactor
    }

    enum CodingKeys: String, CodingKey {
        case driver, plate, company
        case timeZone = "time_zone"
        case calibrationFactor = "calibration_factor"
    }
}
