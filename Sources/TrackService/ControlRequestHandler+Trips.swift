import ControlSocket
import TrackCore
import TrackStore

/// The trips: the list and one trip, starting and stopping, trips added, edited and deleted, regular trips.
extension ControlRequestHandler {
    /// Answers a method of the trips.
    func trips(_ call: Call, peer: PeerCredentials?, session: ControlSession) async -> Result<any Encodable & Sendable, RPCError> {
        switch call.method {
        case .trips:
            await read(call, TripsParams.self, settling: true) { log, params in
                try await log.trips(params ?? TripsParams(), now: now())
            }
        case .tripsOverview:
            await read(call, TripsParams.self, settling: true) { log, params in
                try await log.tripsOverview(params ?? TripsParams(), now: now())
            }
        case .show:
            await read(call, TripIDParams.self, required: "{\"id\": 12}", settling: true) { log, params in
                try await log.tripDetail(params.id)
            }
        case .start:
            await change(call, StartParams.self, peer: peer, session: session) { .start($0) }
        case .stop:
            await change(call, StopParams.self, peer: peer, session: session, optional: StopParams()) { .stop($0) }
        case .add:
            await change(call, ManualTrip.self, peer: peer, session: session) { .add($0) }
        case .edit:
            await change(call, EditParams.self, peer: peer, session: session) { .edit($0) }
        case .delete:
            await change(call, DeleteParams.self, peer: peer, session: session) { .delete($0) }
        case .regularList:
            await read(call, NoParams.self) { log, _ in try await log.regularTrips() }
        case .regularAdd:
            await change(call, RegularTrip.self, peer: peer, session: session) { .addRegular($0) }
        case .regularRemove:
            await change(call, NameParams.self, peer: peer, session: session) { .removeRegular($0) }
        default:
            .failure(.methodNotFound(call.method.rawValue))
        }
    }
}
