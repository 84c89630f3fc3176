/// Whether the car's engine runs, from what the OBD-II adapter reads: the engine speed where the car answers
/// (PID 0C: at least `runningRPM`), else the battery voltage, with hysteresis and a settling time (at least
/// `startVolts` for `voltageSettle` seconds: the alternator charges, so the engine runs; below `stopVolts` as long:
/// it stopped); a car that stops answering has its ignition off. Pure: the dialogue's events go in with their time,
/// the engine's starts and stops come out.
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
    /// The battery voltage at or above which, held for `voltageSettle`, the engine runs: a charging battery reads
    /// 13.5–14.7 V, while one just switched off keeps a surface charge of 12.7–13.2 V for minutes and a resting one
    /// reads 12.2–12.8 V.
    public static let startVolts = 13.4
    /// The battery voltage below which, held for `voltageSettle`, a running engine has stopped. Between the two the
    /// engine stays as it was, so a voltage wavering at one threshold changes nothing.
    public static let stopVolts = 13.3
    /// Seconds the voltage must stay past a threshold before it changes what the engine does; the change is dated
    /// at the first reading past it. A single reading (the first after a silence, a spike) decides nothing.
    public static let voltageSettle = 3.0

    public private(set) var state = State.unknown
    /// Whether the car answered its last question (then its engine speed decides, not the voltage).
    private var carAnswers = false
    /// The voltage's verdict waiting to settle: whether it says running, and since which reading.
    private var pending: (running: Bool, since: MonotonicInstant)?

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
            pending = nil
            return nil
        case .reading(.engineSpeed(let rpm), _):
            carAnswers = true
            pending = nil
            return set(running: rpm >= Self.runningRPM, at: now)
        case .voltage(let volts):
            // Where the car gives its engine speed, that decides; the voltage only for a car that does not answer
            // yet (some cars answer only once the engine runs).
            guard !carAnswers else { return nil }
            return take(volts: volts, at: now)
        case .carSilent:
            carAnswers = false
            pending = nil
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
        pending = nil
        state = .unknown
    }

    /// The adapter stopped answering: a running engine is no longer known to run (the car may drive on, the trip
    /// must not end), but an engine that was off stays off — many adapters go to sleep once the battery's voltage
    /// says the engine is off, and a trip waiting for `ignition_off_after` must still close.
    public mutating func loseAdapter() {
        carAnswers = false
        pending = nil
        if case .running = state { state = .unknown }
    }

    /// A battery voltage read while the car does not answer: a change once it has held past its threshold.
    private mutating func take(volts: Double, at now: MonotonicInstant) -> Change? {
        let says: Bool
        if volts >= Self.startVolts {
            says = true
        } else if volts < Self.stopVolts {
            // Nothing known yet and a voltage that says off: off, with no change to report and nothing to wait for.
            if state == .unknown { return set(running: false, at: now) }
            says = false
        } else {
            pending = nil
            return nil
        }
        if says == isRunning, state != .unknown {
            pending = nil
            return nil
        }
        guard let waiting = pending, waiting.running == says else {
            pending = (says, now)
            return nil
        }
        guard now.seconds(since: waiting.since) >= Self.voltageSettle else { return nil }
        pending = nil
        return set(running: says, at: waiting.since)
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
