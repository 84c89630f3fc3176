/// Whether the car's engine runs, from what the OBD-II adapter reads: the engine speed where the car answers
/// (PID 0C: at least `runningRPM`), else the battery voltage (above `chargingVolts` the alternator charges, so the
/// engine runs); a car that stops answering has its ignition off. Pure: the dialogue's events go in with their
/// time, the engine's starts and stops come out.
public struct IgnitionTracker: Sendable {
    /// Whether the engine runs, and since when (the monotonic time of the reading that said so).
    public enum State: Sendable, Hashable {
        case unknown
        case running(since: MonotonicInstant)
        case off(since: MonotonicInstant)
    }

    /// What changed.
    public enum Change: Sendable, Hashable {
        case started(at: MonotonicInstant)
        case stopped(at: MonotonicInstant)
    }

    /// The least engine speed of a running engine (an idling engine turns 600–900 rpm; 0 with the ignition on and
    /// the engine off, or stopped by a start-stop system).
    public static let runningRPM = 300.0
    /// The battery voltage above which the alternator charges (a resting 12 V battery reads 12.2–12.8 V; a charging
    /// one 13.5–14.7 V).
    public static let chargingVolts = 13.0

    public private(set) var state = State.unknown
    /// Whether the car answered its last question (then its engine speed decides, not the voltage).
    private var carAnswers = false

    public init() {}

    /// Whether the engine runs now.
    public var isRunning: Bool {
        if case .running = state { return true }
        return false
    }

    /// Takes one event of the dialogue at `now`; what changed, if anything.
    public mutating func take(_ event: OBDEvent, at now: MonotonicInstant) -> Change? {
        switch event {
        case .carAnswered:
            carAnswers = true
            return nil
        case .reading(.engineSpeed(let rpm), _):
            carAnswers = true
            return set(running: rpm >= Self.runningRPM, at: now)
        case .voltage(let volts):
            // Where the car gives its engine speed, that decides; the voltage only for a car that does not answer
            // yet (some cars answer only once the engine runs).
            guard !carAnswers else { return nil }
            return set(running: volts >= Self.chargingVolts, at: now)
        case .carSilent:
            carAnswers = false
            return set(running: false, at: now)
        case .adapterLost:
            loseAdapter()
            return nil
        default:
            return nil
        }
    }

    /// Another adapter (or none): nothing is known of the engine.
    public mutating func forget() {
        carAnswers = false
        state = .unknown
    }

    /// The adapter stopped answering: a running engine is no longer known to run (the car may drive on, the trip
    /// must not end), but an engine that was off stays off — many adapters go to sleep once the battery's voltage
    /// says the engine is off, and a trip waiting for `ignition_off_after` must still close.
    public mutating func loseAdapter() {
        carAnswers = false
        if case .running = state { state = .unknown }
    }

    private mutating func set(running: Bool, at now: MonotonicInstant) -> Change? {
        switch (state, running) {
        case (.running, true), (.off, false): return nil
        case (_, true):
            state = .running(since: now)
            return .started(at: now)
        case (_, false):
            let wasRunning = isRunning
            state = .off(since: now)
            return wasRunning ? .stopped(at: now) : nil
        }
    }
}
