import Logging
import TrackCore
import TrackInput
import TrackStore

/// What the OBD-II adapter reports: into the live status, and what matters into the journal.
extension TrackerService {
    /// An adapter configured or dropped, its link's state, or what its dialogue found out; with `auto_start_on:
    /// ignition`, the engine's start starts the trip.
    func handleOBD(_ input: OBDInput, in state: inout State) async {
        let now = clock()
        let published = state.obd
        switch input {
        case .adapter(let address):
            state.obd = address.map { OBDStatus(address: $0.description) }
            state.obdAnnounced = true
            state.recorder?.carOdometer = nil
            state.ignition.forget()
            if let address {
                logger.info("OBD adapter configured", metadata: ["adapter": "\(address)"])
            }
        case .event(.chosen(let address, let reason)):
            guard var obd = state.obd else { return }
            obd.chosen = address.description
            obd.reason = reason
            state.obd = obd
            logger.notice("OBD adapter found", metadata: ["adapter": "\(obd.address)", "chosen": "\(address)",
                                                          "reason": "\(reason)"])
        case .event(.state(let link)):
            guard var obd = state.obd else { return }
            let report = SourceStatus(link, address: obd.address)
            obd.apply(link: report.state, detail: report.detail)
            state.obd = obd
            switch link {
            case .connected(let detail):
                logger.notice("OBD adapter connected", metadata: ["adapter": "\(obd.address)", "detail": "\(detail)",
                                                                  "message_id": "\(LogMessageID.obdConnected)"])
            case .lost(let reason):
                // The car may move on without the adapter: its last reading no longer stands, nor a running engine.
                state.recorder?.carOdometer = nil
                state.ignition.loseAdapter()
                logger.warning("OBD adapter lost", metadata: ["adapter": "\(obd.address)", "reason": "\(reason)",
                                                              "message_id": "\(LogMessageID.obdLost)"])
            case .connecting, .ended:
                break
            }
        case .event(.dialogue(let event)):
            guard var obd = state.obd else { return }
            let before = obd
            obd.apply(event)
            state.obd = obd
            note(event, before: before, after: obd, in: &state, at: now)
            switch event {
            case .reading(let reading, let at):
                status.recordOBDReading(at: now)
                switch reading {
                // Another car's odometer is not the log's.
                case .odometer(let kilometres): state.recorder?.carOdometer = obd.logVIN == nil ? kilometres * 1000 : nil
                // The distance through an outage of the receiver comes from it.
                case .speed(let kilometresPerHour): await apply(.carSpeed(kilometresPerHour / 3.6, at: at), to: &state)
                case .engineSpeed: break
                }
            case .vin(let vin):
                await meetCar(vin: vin, in: &state)
            case .odometerSupport(false):
                // (An adapter lost is followed by the link's `.lost`, which clears it.)
                state.recorder?.carOdometer = nil
            default:
                break
            }
            let change = state.ignition.take(event, at: now)
            if let change { await handleIgnition(change, adapter: obd.address, in: &state) }
        }
        switch state.ignition.state {
        case .unknown: state.obd?.engineRunning = nil
        case .running: state.obd?.engineRunning = true
        case .off: state.obd?.engineRunning = false
        }
        publish(obd: state.obd, changedFrom: published)
        await startBootTripWhenDecided(&state)
    }

    /// The adapter and its car into the live status, and to the watchers when it changed since `published`.
    func publish(obd: OBDStatus?, changedFrom published: OBDStatus?) {
        status.record(obd: obd)
        if let obd, obd != published { hub.publish(.obd(obd)) }
    }

    /// The car's VIN against the log's: taken into a log without one; another car's is said, and its odometer kept
    /// out of the log until the profile names it (`trackctl profile set --vin`).
    func meetCar(vin: String, in state: inout State) async {
        guard let recorder = state.recorder, state.obd?.vin == vin else { return }
        let adapter: Logger.MetadataValue = "\(state.obd?.address ?? "")"
        do {
            switch try await recorder.log.meetCar(vin: vin, context: changeContext(user: "trackd (car)")) {
            case .recorded:
                state.obd?.logVIN = nil
                logger.notice("the car's VIN is now the log's", metadata: ["adapter": adapter, "vin": "\(vin)"])
            case .thisCar:
                state.obd?.logVIN = nil
            case .otherCar(let logVIN):
                if state.obd?.logVIN != logVIN {
                    logger.warning("another car: the log belongs to another VIN, and this car's odometer is not taken into it", metadata: [
                        "adapter": adapter, "vin": "\(vin)", "log_vin": "\(logVIN)",
                        "remedy": "if the log moved to this car: trackctl profile set --vin \(vin)",
                        "message_id": "\(LogMessageID.obdOtherCar)",
                    ])
                }
                state.obd?.logVIN = logVIN
                state.recorder?.carOdometer = nil
            }
        } catch {
            logger.warning("the car's VIN cannot be checked against the log's", metadata: [
                "adapter": adapter, "vin": "\(vin)", "error": "\(error)",
            ])
        }
    }

    /// The engine started or stopped: said in the journal; a start starts the trip `auto_start_on: ignition` asks
    /// for (the stop closes it later, at the tick, once the engine has been off for `ignition_off_after`).
    private func handleIgnition(_ change: IgnitionTracker.Change, adapter: String, in state: inout State) async {
        switch change {
        case .started:
            logger.notice("engine started", metadata: ["adapter": "\(adapter)", "message_id": "\(LogMessageID.engineStarted)"])
            if ignitionOffAfter != nil {
                await startAutomatically(&state)
                await refreshOdometer(state)
            }
        case .stopped:
            logger.notice("engine stopped", metadata: [
                "adapter": "\(adapter)", "message_id": "\(LogMessageID.engineStopped)",
                "trip_closes_after": "\(ignitionOffAfter.map { "\($0.plainDescription) s" } ?? "never (auto_start_on: boot)")",
            ])
        }
    }

    /// At the tick: a running trip closes once the engine has been off for `ignition_off_after`, at the moment the
    /// car came to rest (a stop at a traffic light, the engine running or off for less, does not end it).
    func closeTripAfterIgnitionOff(_ state: inout State, at now: MonotonicInstant) async {
        guard let offAfter = ignitionOffAfter, let trip = state.engine.trip,
              case .off(let since) = state.ignition.state, now.seconds(since: since) >= offAfter,
              since >= trip.startedAt
        else { return }
        logger.notice("closing the trip: the engine has been off", metadata: [
            "trip": "\(trip.number)", "off_for": "\(Int(now.seconds(since: since))) s",
        ])
        _ = await stop(StopParams(), reason: "ignition-off", atStandstill: true, in: &state)
        await refreshOdometer(state)
    }

    /// Tells the journal what changed: the adapter and the car once each, silences and losses as they come, unusable
    /// answers at most once a minute.
    private func note(_ event: OBDEvent, before: OBDStatus, after: OBDStatus, in state: inout State, at now: MonotonicInstant) {
        let adapter: Logger.MetadataValue = "\(after.address)"
        switch event {
        case .adapter(let name):
            if before.adapter != name { logger.info("OBD adapter answered", metadata: ["adapter": adapter, "name": "\(name)"]) }
        case .carAnswered:
            if before.car != .answering {
                logger.notice("car answering", metadata: ["adapter": adapter, "message_id": "\(LogMessageID.obdCarAnswering)"])
            }
        case .protocolName(let name):
            if before.protocolName != name { logger.info("car protocol", metadata: ["adapter": adapter, "protocol": "\(name)"]) }
        case .vin(let vin):
            if before.vin != vin { logger.notice("car identified", metadata: ["adapter": adapter, "vin": "\(vin)"]) }
        case .vinUnavailable(let reason):
            if before.vin != nil || before.car == .unknown {
                logger.info("car gives no VIN", metadata: ["adapter": adapter, "reason": "\(reason)"])
            }
        case .odometerSupport(let supported):
            if before.odometerSupported != supported {
                if supported {
                    logger.notice("car reports its odometer (PID A6)", metadata: ["adapter": adapter])
                } else {
                    logger.notice("car does not report its odometer (PID A6): trips keep the log's own odometer",
                                  metadata: ["adapter": adapter])
                }
            }
        case .carSilent(let reason):
            if before.car != .silent {
                logger.notice("car silent", metadata: ["adapter": adapter, "reason": "\(reason)",
                                                       "message_id": "\(LogMessageID.obdCarSilent)"])
            }
        case .unanswered(let reason):
            if let summary = state.obdProblems.note(reason, at: now) {
                logger.warning("OBD answer unusable", metadata: ["adapter": adapter, "detail": "\(summary)"])
            }
        case .adapterLost:
            // Reported by the link's `.lost` that follows.
            break
        case .reading, .voltage:
            break
        }
    }
}
