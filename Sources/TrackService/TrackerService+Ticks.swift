import TrackCore
import TrackStore

/// The tick: a one-second beat queued into the inbox, on which the tracker does what time alone decides.
extension TrackerService {
    /// Queues a tick every `interval` (on the continuous clock, without drift) until cancelled or the inbox ends;
    /// after a stall longer than an interval, one tick comes at once and the next an interval later, not a burst.
    static func runTicks(every interval: Duration, into inbox: TrackerInbox) async {
        let clock = ContinuousClock()
        var deadline = clock.now
        repeat {
            deadline = max(deadline.advanced(by: interval), clock.now)
            do { try await clock.sleep(until: deadline) } catch { return }
        } while inbox.tick()
    }

    /// At each tick: the engine's idle and outage clocks, a power-cut recovery that waited too long, the write
    /// backlog, and a trip asked at boot that waits for the log.
    func handleTick(_ state: inout State) async {
        await apply(.tick(clock()), to: &state)
        if state.recorder?.recoveryExpired(now: clock()) == true {
            await state.recorder?.giveUpRecovery(
                reason: "no usable fix within \(Int(recording?.recovery.resumeWithin ?? 0)) s of the restart")
            await startAutomatically(&state)
            await refreshOdometer(state)
        }
        await state.recorder?.tick(now: clock(), moving: state.engine.isMoving,
                                   ends: state.engine.trip.map { TripEnds(start: $0.startPosition, end: $0.endPosition) })
        if state.autoStartWaiting, state.recorder?.isFailing == false {
            await startAutomatically(&state)
            await refreshOdometer(state)
        }
    }
}
