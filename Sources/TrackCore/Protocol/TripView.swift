/// One view of a trip, whoever shows it: `status` (the running trip), the watchers' `trip` notices, `trackctl
/// replay --json` and the journal's fields. Made from the engine's `Trip` alone, so that each says the same; the
/// distance is the trip's one formula (`Trip.loggedDistance`).
public struct TripView: Sendable, Codable, Hashable {
    public var number: TripID
    public var kind: TripKind
    public var purpose: String?
    /// GPS times of its first and last usable fix, once known.
    public var start: UTCTime?
    public var end: UTCTime?
    /// Distance (calibrated), metres.
    public var distance: Double
    /// Distance before calibration, metres.
    public var measuredDistance: Double
    /// Seconds from its first fix: to now while it runs (`status`), else to its last fix; monotonic clock.
    public var duration: Double?
    public var idleAlerts: Int
    /// Outages bridged so far.
    public var bridgedGaps: Int

    /// The view of `trip`; `now` (the monotonic clock) makes the duration run to now, as `status` shows it.
    public init(_ trip: Trip, now: MonotonicInstant? = nil) {
        number = trip.number
        kind = trip.kind
        purpose = trip.purpose
        start = trip.start
        end = trip.end
        distance = trip.distance
        measuredDistance = trip.measuredDistance
        if let now {
            duration = trip.firstFixAt.map { now.seconds(since: $0) }
        } else {
            duration = trip.duration
        }
        idleAlerts = trip.idleAlerts
        bridgedGaps = trip.gaps.filter(\.isBridged).count
    }

    enum CodingKeys: String, CodingKey {
        case number, kind, purpose, start, end, duration
        case distance = "distance_m"
        case measuredDistance = "measured_distance_m"
        case idleAlerts = "idle_alerts"
        case bridgedGaps = "bridged_gaps"
    }
}
