import TrackCore
import TrackStore

/// Changes to the log asked over the socket, carried out in order with the trip's life.
extension TrackerService {
    /// Carries out a change to the log asked over the socket.
    func carryOut(_ request: LogRequest, user: String, in state: inout State) async -> Result<LogResponse, RPCError> {
        guard let recorder = state.recorder else { return .failure(.unavailable("this trackd keeps no log")) }
        let log = recorder.log
        let context = changeContext(user: user)
        do {
            // What the point file holds goes into the log before a change that may touch the running trip's track,
            // and is overwritten on the card before an erasure or a reclassification that erases a route.
            switch request {
            case .edit(let params):
                try await state.recorder?.settlePointFile(zeroing: params.changes.makesPrivate)
            case .erase, .delete:
                try await state.recorder?.settlePointFile(zeroing: true)
            default:
                break
            }
            switch request {
            case .start(let params):
                return await start(params, in: &state).flatMap { trip in
                    trip.map { .success(.trip($0)) } ?? .failure(.unavailable("this trackd keeps no log"))
                }
            case .stop(let params):
                return await stop(params, reason: "stopped", in: &state).flatMap { trip in
                    trip.map { .success(.trip($0)) } ?? .failure(.storage("the trip ended but the log could not close it; see the journal"))
                }
            case .add(let manual):
                let trip = try await log.addTrip(manual, context: context)
                await recorder.refreshExports(for: trip, now: context.time)
                return .success(.trip(trip))
            case .edit(let params):
                let before = try await log.trip(params.id)
                let erasing = recorder.privacy.erasesRoutesOfPrivateTrips && params.changes.makesPrivate
                    && before.source == .gps && before.route.isKept
                // The route goes with the reclassification, and with it the month's files, as in an erasure.
                let months = erasing ? before.date.map { [$0] } ?? [] : []
                let (trip, _) = try await recorder.settingExportsAside(months, now: context.time) {
                    () async throws(StoreError) -> LogTrip in
                    try await log.editTrip(params.id, params.changes, reason: params.reason, context: context,
                                           erasingPrivateRoutes: erasing)
                }
                if state.engine.trip?.number == params.id {
                    state.recorder?.routeKept = trip.route.isKept
                    await apply(.reclassifyTrip(trip.kind, purpose: trip.purpose), to: &state)
                } else if !erasing {
                    // Its GPX names its kind and purpose, the month's CSV all it holds (an erasure rewrote both).
                    await recorder.refreshExports(for: trip, now: context.time)
                }
                return .success(.trip(trip))
            case .delete(let params):
                let trip = try await log.deleteTrip(params.id, reason: params.reason, context: context)
                await recorder.refreshExports(for: trip, now: context.time)
                return .success(.trip(trip))
            case .odometer(let params):
                return .success(.odometer(try await log.setOdometer(params.kilometres * 1000, reason: params.reason,
                                                                    context: context)))
            case .calibrate(let params):
                return .success(.calibration(try await log.acceptCalibration(reason: params.reason, context: context)))
            case .profile(let params):
                let profile = try await log.setProfile(params.changes, reason: params.reason, context: context)
                // A VIN set or cleared: the car behind the adapter is checked against it again.
                if params.changes.vin != nil, let vin = state.obd?.vin {
                    let published = state.obd
                    await meetCar(vin: vin, in: &state)
                    publish(obd: state.obd, changedFrom: published)
                }
                return .success(.profile(profile))
            case .addRegular(let regular):
                try await log.addRegularTrip(regular, context: context)
                return .success(.regular(regular))
            case .removeRegular(let params):
                try await log.removeRegularTrip(params.name, context: context)
                return .success(.removed(params))
            case .erase(let params):
                let erasure = try await state.recorder?.erase(params, context: context,
                                                              runningTrip: state.engine.trip?.number)
                return erasure.map { .success(.erasure($0)) } ?? .failure(.unavailable("this trackd keeps no log"))
            case .addPlace(let params):
                let position: Coordinate
                if params.here == true {
                    position = try standingPosition(state)
                } else if let given = params.position {
                    position = given
                } else {
                    return .failure(.invalidParams("place.add", "give 'position' or 'here': true"))
                }
                return .success(.place(try await log.addPlace(params.draft(at: position), reason: params.reason,
                                                              context: context)))
            case .editPlace(let params):
                var changes = params.changes
                if params.here == true { changes.position = try standingPosition(state) }
                return .success(.place(try await log.editPlace(params.place, changes, reason: params.reason,
                                                               context: context)))
            case .removePlace(let params):
                return .success(.removedPlace(try await log.removePlace(params.place, reason: params.reason,
                                                                         context: context)))
            case .addRule(let params):
                return .success(.rule(try await log.addRule(params.rule, reason: params.reason, context: context)))
            case .editRule(let params):
                return .success(.rule(try await log.editRule(params.rule, params.changes, reason: params.reason,
                                                             context: context)))
            case .deleteRule(let params):
                return .success(.rule(try await log.deleteRule(params.rule, reason: params.reason, context: context)))
            case .confirm(let params):
                let trips = try await log.confirmTrips(params, context: context)
                for trip in trips { await recorder.refreshExports(for: trip, now: context.time) }
                return .success(.trips(trips))
            case .recordMailing(let mailing):
                return .success(.mailing(try await log.recordReportMailing(mailing)))
            case .recordStickCopy(var copy):
                // The time by trackd's clock (GPS time first): the board may have no real-time clock.
                copy.time = context.time
                let recorded = try await log.recordStickCopy(copy)
                status.record(stick: recorded)
                return .success(.stickCopy(recorded))
            }
        } catch {
            return .failure(RPCError(logFailure: error))
        }
    }

    /// Where the car stands, for a place named `--here`: the spot of the present stop (its positions' robust mean).
    func standingPosition(_ state: State) throws(StoreError) -> Coordinate {
        if state.engine.isMoving {
            throw .invalid("the car is moving; --here takes the place where it stands (or give --at LAT,LON)")
        }
        guard let spot = state.engine.standingSpot else {
            throw .invalid("trackd has no trusted position yet; wait for a fix, or give --at LAT,LON")
        }
        return spot
    }

    /// Who changes the log and when: GPS time when the daemon has it, else the system clock.
    func changeContext(user: String) -> ChangeContext {
        let now = status.logTime(now: clock())
        return ChangeContext(user: user, time: now.time, timeSource: now.source)
    }
}
