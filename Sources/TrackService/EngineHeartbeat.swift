import Synchronization
import TrackCore

/// When the tracker last finished handling an input (a fix, a command or its one-second tick): the watchdog's
/// proof that the engine is really processing.
public final class EngineHeartbeat: Sendable {
    private let lastBeat = Atomic<UInt64>(0)

    public init(now: MonotonicInstant) {
        lastBeat.store(now.nanoseconds, ordering: .relaxed)
    }

    /// The tracker finished an input at `now`.
    func beat(at now: MonotonicInstant) {
        lastBeat.store(now.nanoseconds, ordering: .relaxed)
    }

    /// Seconds since the last beat.
    public func age(now: MonotonicInstant) -> Double {
        now.seconds(since: MonotonicInstant(nanoseconds: lastBeat.load(ordering: .relaxed)))
    }
}
