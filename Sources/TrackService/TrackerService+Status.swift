import TrackCore
import TrackStore

/// What the live status shows of the log: whether it can be written, and the odometer.
extension TrackerService {
    /// Tells the live status whether the log can be written.
    func publishStorage(_ state: State) {
        guard let recorder = state.recorder else { return }
        let now = clock()
        status.record(storage: recorder.storage(now: now), at: now)
    }

    /// Tells the live status the log's odometer: at the running trip's start, or now.
    func refreshOdometer(_ state: State) async {
        guard let recorder = state.recorder else { return }
        if state.engine.trip != nil {
            status.record(odometer: recorder.runningOdometerStart, atTripStart: true)
        } else {
            status.record(odometer: try? await recorder.log.odometer(), atTripStart: false)
        }
    }
}
