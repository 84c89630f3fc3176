/// What comes out of the engine, in order.
public enum EngineEvent: Sendable {
    /// A trusted position during a trip: for the track log.
    case trackPoint(TrackPoint)
    case tripStarted(Trip)
    /// A trip interrupted by a power cut carries on.
    case tripResumed(Trip)
    /// A start while a trip runs: no second trip.
    case tripAlreadyRunning(Trip)
    case tripEnded(Trip)
    /// A stop with no trip running.
    case noTripRunning
    case idle(IdleAlert)
    /// No usable fix since this time (for `fixLossAfter`).
    case fixLost(since: UTCTime?)
    /// Usable fixes again from this GPS time (the first usable fix), after this many seconds without.
    case fixRegained(at: UTCTime, after: Double)
    /// Movement confirmed, from this time.
    case startedMoving(UTCTime)
    /// Stationary from this time.
    case stopped(UTCTime)
    /// While stationary by its speed, the position left the parked spot for good (creeping, or a receiver
    /// without speed): the displacement was counted, and a new stop begins.
    case displaced(UTCTime, metres: Double)
    /// An outage ended, with how it was counted.
    case gap(GapReport)
}

/// A trusted position of a trip.
public struct TrackPoint: Sendable, Hashable, Codable {
    public var time: UTCTime
    public var coordinate: Coordinate
    public var speed: Double?
    public var error: Double?
    /// The trip's measured distance up to here, metres.
    public var distance: Double

    public init(time: UTCTime, coordinate: Coordinate, speed: Double?, error: Double?, distance: Double) {
        self.time = time
        self.coordinate = coordinate
        self.speed = speed
        self.error = error
        self.distance = distance
    }
}
