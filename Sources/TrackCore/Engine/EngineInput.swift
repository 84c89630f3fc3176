/// What goes into the engine: fixes, the passing of time, and commands.
public enum EngineInput: Sendable {
    /// A fix, with the monotonic time it arrived.
    case fix(Fix, receivedAt: MonotonicInstant)
    /// The car's own speed (OBD-II PID 0D), m/s, with the monotonic time its answer arrived: the distance through
    /// an outage of the receiver is counted from it where it covers the outage.
    case carSpeed(Double, at: MonotonicInstant)
    /// Time passes without a fix (for the idle alert and the loss of fix while the receiver is silent).
    case tick(MonotonicInstant)
    /// Start a trip. While one runs, nothing new starts. `number` is the log's number for it (else the engine counts),
    /// `calibrationFactor` the log's factor (else the configuration's). `measuredSince`: a trip asked earlier and
    /// started now (one that waited for the car's odometer) takes what the engine measured outside trips since it was
    /// asked — the engine's `distanceOutsideTrips` then — and starts at the spot the car left meanwhile.
    case startTrip(TripKind, purpose: String?, at: MonotonicInstant, number: TripID? = nil, calibrationFactor: Double? = nil,
                   measuredSince: Double? = nil)
    /// Where the car stood before the running trip's first fix (the trip asked at boot): the drive from there to the
    /// first trusted position is bridged like an outage (`GapReport.beforeFirstFix`), and the trip then starts there
    /// at power-on. Ignored once a usable fix has arrived, or without a running trip that waits for its first fix.
    case parkedBefore(ParkedOrigin)
    /// Change what the running trip is for (an edit in the log while it runs).
    case reclassifyTrip(TripKind, purpose: String?)
    /// Carry on with a trip a power cut interrupted, as the log kept it (nothing happens while another trip runs).
    case resumeTrip(Trip)
    /// Close the running trip at its last usable fix, optionally setting its purpose; `atStandstill`: at the moment
    /// the car came to rest instead, when it stands (a trip closed by the ignition after the engine has been off for
    /// a while ends where the car stopped moving, not when trackd closed it).
    case stopTrip(purpose: String?, at: MonotonicInstant, atStandstill: Bool = false)
    /// Use new settings from the next input on (a configuration reload); the running trip, the motion state and
    /// the distance carry on.
    case reconfigure(EngineConfiguration)
}
