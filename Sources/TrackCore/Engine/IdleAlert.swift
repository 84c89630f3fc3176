/// The vehicle has stood still for `idleAlertAfter` during a trip.
public struct IdleAlert: Sendable, Hashable, Codable {
    /// When the alert is due: the start of the stop plus `idleAlertAfter` (GPS time).
    public var time: UTCTime
    /// When the vehicle stopped.
    public var stationarySince: UTCTime
    /// Where it stands, if known.
    public var position: Coordinate?
    /// The trip it belongs to.
    public var tripNumber: TripID

    enum CodingKeys: String, CodingKey {
        case time, position
        case stationarySince = "stationary_since"
        case tripNumber = "trip"
    }

    public init(time: UTCTime, stationarySince: UTCTime, position: Coordinate?, tripNumber: TripID) {
        self.time = time
        self.stationarySince = stationarySince
        self.position = position
        self.tripNumber = tripNumber
    }
}
