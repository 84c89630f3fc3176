import ControlSocket
import TrackCore
import TrackStore

/// Named places: the list, suggestions from where trips end, and changes.
extension ControlRequestHandler {
    /// Answers a method of the places.
    func places(_ call: Call, peer: PeerCredentials?, session: ControlSession) async -> Result<any Encodable & Sendable, RPCError> {
        switch call.method {
        case .placeList:
            await read(call, NoParams.self) { log, _ in try await log.places() }
        case .placeSuggest:
            await read(call, PlaceSuggestParams.self) { log, params in
                try await log.placeSuggestions(params ?? PlaceSuggestParams())
            }
        case .placeAdd:
            await change(call, PlaceAddParams.self, peer: peer, session: session) { .addPlace($0) }
        case .placeEdit:
            await change(call, PlaceEditParams.self, peer: peer, session: session) { .editPlace($0) }
        case .placeRemove:
            await change(call, PlaceRemoveParams.self, peer: peer, session: session) { .removePlace($0) }
        default:
            .failure(.methodNotFound(call.method.rawValue))
        }
    }
}
