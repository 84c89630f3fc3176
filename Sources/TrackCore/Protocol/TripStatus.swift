/// The running trip, as `status` shows it.
public struct TripStatus: Sendable, Codable, Hashable {
    public var number: TripID
    public var kind: TripKind
    public var purpose: String?
    /// GPS time of its first fix, once known.
    public var start: UTCTime?
    /// Distance so far (calibrated), metres.
    public var distance: Double
    public var measuredDistance: Double
    /// Seconds since its first fix, on the monotonic clock.
    public var duration: Double?
    public var idleAlerts: Int
    /// Outages bridged so far.
    public var bridgedGaps: Int

    public init(_ trip: Trip, now: MonotonicInstant) {
        number = trip.number
        kind = trip.kind
        purpose = trip.purpose
        start = trip.start
        distance = trip.distance
        measuredDistance = trip.measuredDistance
        duration = trip.firstFixAt.map { now.seconds(since: $0) }
        idleAlerts = trip.idleAlerts
        bridgedGaps = trip.gaps.filter(\.isBridged).count
    }

    enum CodingKeys: String, CodingKey {
        case number, kind, purpose, start, duration
        case distance = "distance_m"
        case measuredDistance = "measured_distance_m"
        case idleAlerts = "idle_alerts"
        case bridgedGaps = "bridged_gaps"
    }
}
