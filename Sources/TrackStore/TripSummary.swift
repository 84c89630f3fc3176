import TrackCore

/// What the engine measured for a trip, handed to the log when the trip closes.
public struct TripSummary: Sendable, Hashable {
    public var start: UTCTime?
    public var end: UTCTime?
    public var startPosition: Coordinate?
    public var endPosition: Coordinate?
    /// Metres, before calibration.
    public var measuredDistance: Double
    /// A purpose given when stopping.
    public var purpose: String?
    /// A customer given when stopping.
    public var customer: String?
    /// `stopped`, `shutdown`, `power-lost`…
    public var endReason: String
    /// When the trip was closed (GPS time when known, else the system clock): the date of a trip that never had a
    /// fix.
    public var closedAt: UTCTime?
    /// The car's odometer as the trip ended (OBD-II), metres; `nil`: none read, the end is the start plus the
    /// distance.
    public var carOdometer: Double?

    public init(start: UTCTime?, end: UTCTime?, startPosition: Coordinate?, endPosition: Coordinate?,
                measuredDistance: Double, purpose: String?, customer: String? = nil, endReason: String,
                closedAt: UTCTime? = nil, carOdometer: Double? = nil) {
        self.customer = customer
        self.closedAt = closedAt
        self.carOdometer = carOdometer
        self.start = start
        self.end = end
        self.startPosition = startPosition
        self.endPosition = endPosition
        self.measuredDistance = measuredDistance
        self.purpose = purpose
        self.endReason = endReason
    }
}
