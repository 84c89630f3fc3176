import Logging
import TrackCore
import TrackStore

/// A trip's life in the tracker: started (by a driver or at boot), resumed after a power cut, stopped.
extension TrackerService {
    /// Starts the trip `--auto-start` asks for (ignition on = boot, or the engine's start with `auto_start_on:
    /// ignition`); while the log cannot be written, again at each commit interval until it opens.
    func startAutomatically(_ state: inout State) async {
        guard let autoStart, state.engine.trip == nil else { return }
        // Started by the engine: only while it runs (not at boot, nor after a power cut's trip was given up).
        if ignitionOffAfter != nil && !state.ignition.isRunning { return }
        // At boot with an adapter: first the car's odometer, for the trip's start.
        if waitsForCar(&state) { return }
        let retrying = state.autoStartWaiting
        state.autoStartWaiting = false
        var measuredSince: Double?
        if case .decided(let measured) = state.bootTrip { measuredSince = measured }
        switch await start(StartParams(kind: autoStart), automatic: true, measuredSince: measuredSince, in: &state) {
        case .failure(let error):
            if state.recorder?.isFailing == true {
                state.autoStartWaiting = true
                if !retrying {
                    logger.error("cannot start the trip at boot yet; trying again while the log cannot be written",
                                 metadata: ["error": "\(error.message)"])
                }
            } else {
                logger.error("cannot start the trip at boot", metadata: ["error": "\(error.message)"])
            }
        case .success(let opened):
            if retrying { logger.notice("the trip asked at boot started once the log could be written") }
            if let opened { await tellWhereParked(before: opened, in: &state) }
        }
    }

    /// Tells the engine where the car was parked before the trip asked at boot, while the trip waits for its first
    /// fix: the drive since power-on is bridged from there (`EngineInput.parkedBefore`). Only at boot (a restart
    /// bridges nothing), and not for a trip that starts at the car's own odometer (OBD-II): the car counted whatever
    /// it drove before its reading.
    private func tellWhereParked(before trip: LogTrip, in state: inout State) async {
        guard let poweredAt, state.engine.trip?.start == nil, trip.odometerStartSource != .car,
              let recorder = state.recorder
        else { return }
        do {
            guard var origin = try await recorder.log.parkedSpot(before: trip.id) else { return }
            origin.poweredAt = poweredAt
            await apply(.parkedBefore(origin), to: &state)
            logger.info("the trip asked at boot bridges from where the car was parked to its first fix", metadata: [
                "parked_since": "\(origin.time)", "powered": "\(Int(clock().seconds(since: poweredAt).rounded())) s ago",
            ])
        } catch {
            logger.warning("cannot read where the car was parked; the trip starts at its first fix",
                           metadata: ["error": "\(error)"])
        }
    }

    /// Starts a trip: its row in the log first (for its number), then the engine. `measuredSince`: the trip was
    /// asked when the engine's distance outside trips was this (`EngineInput.startTrip`).
    func start(_ params: StartParams, automatic: Bool = false, measuredSince: Double? = nil,
               in state: inout State) async -> Result<LogTrip?, RPCError> {
        if params.commute == true && params.kind != .private {
            return .failure(.invalidParams("start", "a commute (home to the regular place of work) is a private trip: "
                                           + "kind must be private"))
        }
        if let running = state.engine.trip {
            return .failure(.refused("trip \(running.number) (\(running.kind)) is already running; stop it first "
                                     + "(trackctl stop)"))
        }
        if state.recorder?.recovering != nil {
            await state.recorder?.giveUpRecovery(reason: "a new trip was started before a usable fix decided")
        }
        var logTrip: LogTrip?
        if let recorder = state.recorder {
            // What waits from a failure (the close of the trip before, …) goes first, or the trip is refused.
            await state.recorder?.catchUp()
            if let failing = state.recorder?.storage(now: clock()), !failing.isOK {
                return .failure(.storage("cannot start a trip: \(failing.detail); trackd keeps what it recorded in "
                                         + "memory and stores it once the log can be written again"))
            }
            let car = await carOdometerAtStart(recorder)
            let opened: LogTrip
            do {
                opened = try await recorder.log.beginTrip(kind: params.kind, purpose: params.purpose,
                                                          customer: params.customer, destination: params.destination,
                                                          route: recorder.privacy.route(startingAs: params.kind),
                                                          carOdometer: car, commute: params.commute ?? false)
            } catch {
                logger.error("cannot open a trip in the log", metadata: ["error": "\(error)"])
                // At boot the failure is the storage's state until the start is retried; a refused request is its own.
                if automatic, !error.isRefusal {
                    state.recorder?.noteFailure(error)
                }
                return .failure(RPCError(logFailure: error))
            }
            state.recorder?.began(opened)
            logTrip = opened
        }
        await apply(.startTrip(params.kind, purpose: params.purpose, at: clock(), number: logTrip?.id,
                               calibrationFactor: logTrip?.calibrationFactor, measuredSince: measuredSince), to: &state)
        // A trip started (by a driver, say) ends a wait at boot: the trip asked then is not started after it.
        state.bootTrip = .decided(measured: nil)
        return .success(logTrip)
    }

    /// The car's odometer for a trip's start, when the adapter has read it: a reading that differs from the log's
    /// odometer is first recorded as an odometer reading (the kilometres driven while trackd was off become a
    /// visible entry, as a dashboard reading makes them). `nil` when there is none, or it cannot be recorded (said
    /// in the journal; the trip then starts from the log's own odometer).
    private func carOdometerAtStart(_ recorder: TripRecorder) async -> Double? {
        guard let car = recorder.carOdometer else { return nil }
        do {
            let log = try await recorder.log.odometer()
            if log.map({ LogTrip.tenths($0) != LogTrip.tenths(car) }) ?? true {
                let update = try await recorder.log.setOdometer(
                    car, reason: "read from the car (OBD-II, PID A6) as a trip started",
                    context: changeContext(user: "trackd (car)"), source: .car)
                logger.notice("the car's odometer differs from the log's: recorded as a reading", metadata: [
                    "car": "\(LogTrip.kilometresText(metres: car)) km",
                    "log": "\(log.map { LogTrip.kilometresText(metres: $0) + " km" } ?? "none")",
                    "entry": "\(update.entry.map { "\($0.id) (\($0.source))" } ?? "none")",
                ])
            }
            return car
        } catch {
            logger.warning("the car's odometer cannot be taken for the trip's start; it starts from the log's own",
                           metadata: ["car": "\(LogTrip.kilometresText(metres: car)) km", "error": "\(error)"])
            return nil
        }
    }

    /// Stops the running trip; the log closes it with what the engine measured. `atStandstill`: it ends where the
    /// car came to rest, when it stands (a trip the ignition closes).
    func stop(_ params: StopParams, reason: String, atStandstill: Bool = false,
              in state: inout State) async -> Result<LogTrip?, RPCError> {
        guard state.engine.trip != nil else {
            return .failure(.refused("no trip is running; start one with trackctl start"))
        }
        let number = state.engine.trip?.number
        state.recorder?.forgetLastClosed()
        await apply(.stopTrip(purpose: params.purpose, at: clock(), atStandstill: atStandstill), to: &state,
                    stopPurpose: params.purpose, stopCustomer: params.customer,
                    endReason: reason)
        if let recorder = state.recorder, recorder.lastClosed == nil, let error = recorder.closeDeferred {
            return .failure(.storage("trip \(number ?? 0) ended, but the mileage log cannot close it yet: "
                                     + "\(TripRecorder.detail(error, path: recorder.log.path)); trackd keeps it in memory "
                                     + "and closes it once the log can be written again"))
        }
        return .success(state.recorder?.lastClosed)
    }

    /// At a usable fix, decides about a trip a power cut left open.
    func recover(at fix: Fix, receivedAt: MonotonicInstant, in state: inout State) async {
        guard state.recorder?.recovering != nil, let time = fix.time, let coordinate = fix.coordinate,
              fix.mode.hasPosition, (fix.eph ?? 0) <= state.engine.configuration.maxHorizontalError
        else { return }
        if let resumed = await state.recorder?.decide(at: fix, time: time, coordinate: coordinate, now: receivedAt) {
            await apply(.resumeTrip(resumed), to: &state)
        } else {
            await startAutomatically(&state)
        }
        await refreshOdometer(state)
    }
}
