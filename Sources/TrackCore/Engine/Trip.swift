/// One trip as the engine measures it. Times are GPS time; durations come from the monotonic clock.
public struct Trip: Sendable, Hashable, Codable {
    /// The engine's running number for the trip (the mileage log gives the permanent one).
    public var number: TripID
    public var kind: TripKind
    public var purpose: String?
    /// GPS time of the trip's first usable fix; `nil` until one has arrived.
    public var start: UTCTime?
    /// GPS time of the trip's last usable fix (the end, once the trip is closed).
    public var end: UTCTime?
    public var startPosition: Coordinate?
    public var endPosition: Coordinate?
    /// Distance as measured, metres.
    public var measuredDistance = 0.0
    /// The calibration factor in force (reported = measured × factor).
    public var calibrationFactor: Double
    /// Outages during the trip and how each was counted.
    public var gaps: [GapReport] = []
    /// Idle alerts raised during the trip.
    public var idleAlerts = 0
    /// Monotonic clock when the trip was started and (once closed) ended.
    public var startedAt: MonotonicInstant
    public var endedAt: MonotonicInstant?
    /// Monotonic time of the first and the last usable fix of the trip.
    public var firstFixAt: MonotonicInstant?
    public var lastFixAt: MonotonicInstant?

    public init(number: TripID, kind: TripKind, purpose: String?, calibrationFactor: Double, startedAt: MonotonicInstant) {
        self.number = number
        self.kind = kind
        self.purpose = purpose
        self.calibrationFactor = calibrationFactor
        self.startedAt = startedAt
    }

    /// Distance as reported: measured × calibration factor, metres.
    public var distance: Double { Trip.loggedDistance(measured: measuredDistance, calibrationFactor: calibrationFactor) }

    /// The one formula of a trip's reported distance, metres: what was measured × the calibration factor in force
    /// when the trip started (none: 1). The engine's running trip, the log's close and the log's running rows use it.
    public static func loggedDistance(measured: Double, calibrationFactor: Double?) -> Double {
        measured * (calibrationFactor ?? 1)
    }

    /// Seconds from the first to the last fix of the trip, on the monotonic clock.
    public var duration: Double? {
        guard let first = firstFixAt, let last = lastFixAt else { return nil }
        return last.seconds(since: first)
    }

    /// Seconds of the trip spent in outages that were bridged.
    public var bridgedSeconds: Double { gaps.filter(\.isBridged).reduce(0) { $0 + $1.duration } }
}
