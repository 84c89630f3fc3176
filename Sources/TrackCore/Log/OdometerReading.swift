/// A reading of the dashboard's odometer, entered by the driver.
public struct OdometerReading: Sendable, Hashable, Codable, Identifiable {
    public var id: Int64
    /// The reading, metres.
    public var value: Double
    public var time: UTCTime
    /// What the log's odometer said at that moment, metres (`nil` for the first reading).
    public var logValue: Double?
    /// The entry that made the difference visible, if there was one.
    public var gapTripID: TripID?
    public var user: String
    public var reason: String

    public init(id: Int64, value: Double, time: UTCTime, logValue: Double?, gapTripID: TripID?, user: String,
                reason: String) {
        self.id = id
        self.value = value
        self.time = time
        self.logValue = logValue
        self.gapTripID = gapTripID
        self.user = user
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey {
        case id
        case value = "reading_m"
        case time
        case logValue = "log_m"
        case gapTripID = "gap_trip"
        case user, reason
    }
}
