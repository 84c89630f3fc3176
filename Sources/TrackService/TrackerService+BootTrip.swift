import Logging
import TrackCore

/// The trip asked at boot, with an OBD-II adapter configured: it waits for the car's odometer, so that it starts at
/// the car's reading and the kilometres driven while trackd was off become an entry before it (a trip opened first
/// would start at the log's own odometer and take them in). It waits while the car stands, at most `carWaitAtBoot`:
/// the car moving, its odometer read, its answer that it has none, another car, a silent car or a lost adapter end
/// the wait at once. Nothing is lost meanwhile: before the car moves the engine measures nothing, and the metres of
/// the fix that shows it moving go into the trip (`EngineInput.startTrip`'s `measuredSince`).
extension TrackerService {
    /// Whether the trip asked at boot is still to wait for the car; the first call starts the wait.
    func waitsForCar(_ state: inout State) -> Bool {
        let now = clock()
        if case .notAsked = state.bootTrip {
            guard ignitionOffAfter == nil, let wait = carWaitAtBoot, state.recorder != nil else {
                state.bootTrip = .decided(measured: nil)
                return false
            }
            state.bootTrip = .waiting(until: now.adding(seconds: wait), measured: state.engine.distanceOutsideTrips)
            logger.info("the trip asked at boot waits for the car's odometer while the car stands",
                        metadata: ["at_most": "\(Int(wait)) s"])
        }
        guard case .waiting(let until, let measured) = state.bootTrip else { return false }
        guard let reason = carDecided(state, now: now, until: until) else { return true }
        state.bootTrip = .decided(measured: measured)
        logger.info("the trip asked at boot starts", metadata: ["because": "\(reason)"])
        return false
    }

    /// Starts the trip asked at boot once the car decides it (called as the adapter, the fixes and the tick report).
    func startBootTripWhenDecided(_ state: inout State) async {
        guard case .waiting = state.bootTrip else { return }
        await startAutomatically(&state)
        if state.engine.trip != nil { await refreshOdometer(state) }
    }

    /// Why the wait is over, or `nil` while the car may still tell its odometer.
    private func carDecided(_ state: State, now: MonotonicInstant, until: MonotonicInstant) -> String? {
        if state.engine.isMoving { return "the car moves before its odometer was read" }
        if state.recorder?.carOdometer != nil { return "the car's odometer was read" }
        if state.obdAnnounced && state.obd == nil { return "no OBD-II adapter is configured any more" }
        if let obd = state.obd {
            if obd.odometerSupported == false { return "the car has no odometer to read (PID A6)" }
            if obd.logVIN != nil { return "another car than the log's" }
            if obd.car == .silent { return "the car does not answer: \(obd.carDetail ?? "silent")" }
            if obd.state == .lost { return "the OBD-II adapter is lost: \(obd.detail)" }
        }
        if now >= until { return "no odometer from the car within \(carWaitAtBoot.map { "\(Int($0))" } ?? "0") s" }
        return nil
    }
}
