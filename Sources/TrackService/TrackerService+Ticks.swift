import TrackCore
import TrackStore

/// The tick: a one-second beat queued into the inbox, on which the tracker does what time alone decides.
extension TrackerService {
    /// Queues a tick every `interval` (on the continuous clock, without drift), stamped with `clock`, until cancelled
    /// or the inbox ends; after a stall longer than an interval, one tick comes at once and the next an interval
    /// later, not a burst.
    static func runTicks(every interval: Duration, into inbox: TrackerInbox,
                         clock stamp: @escaping @Sendable () -> MonotonicInstant) async {
        let clock = ContinuousClock()
        var deadline = clock.now
        repeat {
            deadline = max(deadline.advanced(by: interval), clock.now)
            do { try await clock.sleep(until: deadline) } catch { return }
        } while inbox.tick(at: stamp())
    }

    /// At each tick, as of `now`, the time it was queued: the engine's idle and outage clocks, a power-cut recovery
    /// that waited too long, the write backlog, and a trip asked at boot that waits for the log or the car.
    ///
    /// As of the tick's own time, not the time the tracker gets to it: the fixes that arrived after it are behind
    /// it in the inbox. A tracker held up for half a minute (a write the SD card took that long over; seen as a
    /// full suite under AddressSanitizer) took its waiting tick first and, by the clock, reported a fix lost and
    /// regained "after 0 s" between two fixes a second apart.
    func handleTick(_ state: inout State, at now: MonotonicInstant) async {
        await apply(.tick(now), to: &state)
        if state.recorder?.recoveryExpired(now: now) == true {
            await state.recorder?.giveUpRecovery(
                reason: "no usable fix within \(Int(recording?.recovery.resumeWithin ?? 0)) s of the restart")
            await startAutomatically(&state)
            await refreshOdometer(state)
        }
        await state.recorder?.tick(now: now, moving: state.engine.isMoving,
                                   ends: state.engine.trip.map { TripEnds(start: $0.startPosition, end: $0.endPosition) })
        await closeTripAfterIgnitionOff(&state, at: now)
        await startBootTripWhenDecided(&state)
        if state.autoStartWaiting, state.recorder?.isFailing == false {
            await startAutomatically(&state)
            await refreshOdometer(state)
        }
    }
}
