/// What goes into the engine: fixes, the passing of time, and commands.
public enum EngineInput: Sendable {
    /// A fix, with the monotonic time it arrived.
    case fix(Fix, receivedAt: MonotonicInstant)
    /// Time passes without a fix (for the idle alert and the loss of fix while the receiver is silent).
    case tick(MonotonicInstant)
    /// Start a trip. While one runs, nothing new starts.
    case startTrip(TripKind, purpose: String?, at: MonotonicInstant)
    /// Close the running trip at its last usable fix, optionally setting its purpose.
    case stopTrip(purpose: String?, at: MonotonicInstant)
}
