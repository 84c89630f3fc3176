/// Every parameter of the engine, with its default. docs/accuracy.md gives the reasons.
public struct EngineConfiguration: Sendable, Hashable, Codable {
    // MARK: Accuracy gate

    /// A position whose horizontal error estimate (95 %) is above this is not used as a position, metres.
    /// Its Doppler speed is still used: receivers measure speed far better than position in bad conditions.
    public var maxHorizontalError = 50.0
    /// After a fix is acquired, positions count as converging until the error estimate is at or below this for
    /// `convergenceFixes` fixes in a row, metres.
    public var convergedHorizontalError = 25.0
    /// Fixes in a row at `convergedHorizontalError` that end the convergence period.
    public var convergenceFixes = 3
    /// The convergence period ends after this long in any case, seconds.
    public var maxConvergence = 120.0
    /// Fastest plausible road vehicle, m/s (252 km/h). Faster reported speeds, or position jumps implying more,
    /// are not used.
    public var maxSpeed = 70.0
    /// Largest plausible change of speed, m/s² (a hard emergency stop is about 10).
    public var maxAcceleration = 12.0
    /// Whether fixes the receiver marks as dead reckoning (estimated, not measured) count.
    public var deadReckoning = DeadReckoningPolicy.reject

    // MARK: Motion and distance

    /// Reported speed from which the vehicle may be moving, m/s. At rest receivers report noise of 0.05–0.2 m/s.
    public var movingSpeed = 0.5
    /// Once moving, the vehicle counts as stopped when the reported speed falls below this, m/s. Lower than
    /// `movingSpeed`, so that the slow end of a stop and the creeping of a manoeuvre are counted.
    public var stoppedSpeed = 0.2
    /// Movement is confirmed when the speed stays at or above `movingSpeed` for this long, seconds (and at least
    /// two fixes), or at once at `certainSpeed`.
    public var motionConfirmation = 1.0
    /// A reported speed that means movement by itself, m/s (9 km/h).
    public var certainSpeed = 2.5
    /// A start must add up to at least this many metres before it is confirmed (unconfirmed, it counts nothing).
    public var confirmationDistance = 1.0
    /// A start must stand out from the receiver's own noise at rest: its speed must reach at least this many
    /// times the RMS of the speeds it reported while stationary (when that is above `movingSpeed`).
    public var restNoiseMargin = 3.5
    /// Without speed evidence, movement is confirmed by a displacement from the parked position of at least this
    /// many metres, or `displacementErrors` times the combined error estimates if that is more…
    public var minDisplacement = 30.0
    /// … measured in error estimates (95 %) of the two positions.
    public var displacementErrors = 1.5
    /// … that lasts this long, seconds (multipath jumps of tens of metres last a few seconds).
    public var displacementPersistence = 15.0
    /// Fixes further apart than this are separated by an outage, seconds; the gap is bridged, not integrated.
    public var gapAfter = 5.0
    /// An outage counts the car's own speed (OBD-II) where its readings are at most this far apart across it,
    /// seconds (else it is bridged from the positions on either side).
    public var carSpeedInterval = 5.0
    /// A bridged gap counts at most this multiple of its straight-line length (the arc of a curved tunnel).
    public var maxBridgeCurvature = 1.15
    /// A trip started before its first fix at boot bridges from where the car was parked to its first position when
    /// that fix came at most this long after the board was powered, seconds. A Pi boots in 20–40 s; a file system
    /// check takes longer.
    public var bridgeFromParkedWithin = 180.0
    /// Reported distance = measured distance × this (from odometer readings; 1 = uncalibrated).
    public var calibrationFactor = 1.0

    // MARK: Alerts and events

    /// A trip stationary this long raises one idle alert, seconds.
    public var idleAlertAfter = 7200.0
    /// No usable fix for this long is reported as a loss of fix, seconds.
    public var fixLossAfter = 30.0

    public init() {}
}

/// What to do with fixes the receiver marks as dead reckoning (GGA quality 6, mode `E`).
public enum DeadReckoningPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Treat them as no fix: the gap they cover is bridged when real fixes return (default: a receiver without
    /// wheel sensors only extrapolates).
    case reject
    /// Use them like any other fix (receivers with wheel-tick or inertial dead reckoning, e.g. u-blox ADR/UDR).
    case accept
}
