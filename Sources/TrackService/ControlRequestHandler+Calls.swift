import ControlSocket
import FoundationEssentials
import TrackCore
import TrackStore

/// What every method's answer is made of: its parameters decoded, a read of the log, a change sent to the tracker.
extension ControlRequestHandler {
    /// GPS time when the daemon has it, else the system clock: "today" for periods.
    func now() -> UTCTime {
        status.logTime(now: clock()).time
    }

    /// A request's method and raw text, for decoding its parameters.
    struct Call {
        let data: Data
        let method: ControlMethod
        /// The request has a `params` member (else there is nothing to decode).
        let hasParams: Bool

        /// Parameters the method cannot do without: their absence is `invalid params`, showing `example`.
        func params<Params: Codable & Sendable>(_ type: Params.Type, required example: String) -> Result<Params, RPCError> {
            params(type).flatMap { params in
                params.map { .success($0) } ?? .failure(.invalidParams(method.rawValue, "'params' is missing: \(example)"))
            }
        }

        func params<Params: Codable & Sendable>(_ type: Params.Type) -> Result<Params?, RPCError> {
            guard hasParams else { return .success(nil) }
            do {
                return .success(try JSONDecoder().decode(RPCRequest<Params>.self, from: data).params)
            } catch {
                return .failure(.invalidParams(method.rawValue, ControlRequestHandler.reason(error)))
            }
        }
    }

    /// A read of the log.
    func read<Params: Codable & Sendable>(
        _ call: Call, _ type: Params.Type, settling: Bool = false,
        _ body: @Sendable (MileageLog, Params?) async throws -> any Encodable & Sendable
    ) async -> Result<any Encodable & Sendable, RPCError> {
        switch call.params(type) {
        case .failure(let error): return .failure(error)
        case .success(let params):
            if settling { await settle() }
            return await withLog { try await body($0, params) }
        }
    }

    /// A read whose parameters are required: without them the answer is `invalid params`, showing `example`.
    func read<Params: Codable & Sendable>(
        _ call: Call, _ type: Params.Type, required example: String, settling: Bool = false,
        _ body: @Sendable (MileageLog, Params) async throws -> any Encodable & Sendable
    ) async -> Result<any Encodable & Sendable, RPCError> {
        switch call.params(type, required: example) {
        case .failure(let error): return .failure(error)
        case .success(let params):
            if settling { await settle() }
            return await withLog { try await body($0, params) }
        }
    }

    /// Asks the tracker to move the running trip's point file into the log before a read of trips or tracks, so
    /// that the answer holds every point committed; the read goes on whatever the tracker answers (or if it is busy).
    func settle() async {
        guard let tracker else { return }
        _ = await Reply<Bool>.wait { reply in
            if tracker.send(.settle(reply: reply)) != .enqueued { reply.send(.success(false)) }
        }
    }

    /// Runs `body` on the log, its error as the protocol says it.
    func withLog(
        _ body: @Sendable (MileageLog) async throws -> any Encodable & Sendable
    ) async -> Result<any Encodable & Sendable, RPCError> {
        guard let log else { return .failure(.unavailable("this trackd keeps no log")) }
        do {
            return .success(try await body(log))
        } catch {
            return .failure(RPCError(logFailure: error))
        }
    }

    /// A change, carried out by the tracker.
    func change<Params: Codable & Sendable>(
        _ call: Call, _ type: Params.Type, peer: PeerCredentials?, session: ControlSession,
        optional fallback: Params? = nil,
        _ request: @escaping @Sendable (Params) -> LogRequest
    ) async -> Result<any Encodable & Sendable, RPCError> {
        if let refusal = access.refusal(for: peer) { return .failure(.forbidden(refusal)) }
        let params: Params
        switch call.params(type) {
        case .failure(let error): return .failure(error)
        case .success(let value):
            guard let value = value ?? fallback else {
                return .failure(.invalidParams(call.method.rawValue, "'params' is missing"))
            }
            params = value
        }
        guard let tracker else { return .failure(.unavailable("this trackd takes no changes")) }
        let user = session.user(peer)
        let outcome = await Reply<LogResponse>.wait { reply in
            switch tracker.send(.request(request(params), user: user, reply: reply)) {
            case .closed:
                reply.send(.failure(.unavailable("trackd is shutting down; the request was not carried out")))
            case .busy:
                reply.send(.failure(.unavailable("trackd is busy with other changes; try again in a moment")))
            case .enqueued:
                break
            }
        }
        return outcome.map { response -> any Encodable & Sendable in
            switch response {
            case .trip(let trip): trip
            case .odometer(let update): update
            case .calibration(let update): update
            case .profile(let profile): profile
            case .regular(let regular): regular
            case .removed(let name): name
            case .erasure(let erasure): erasure
            case .place(let update): update
            case .removedPlace(let place): place
            case .rule(let rule): rule
            case .trips(let trips): trips
            case .mailing(let mailing): mailing
            case .stickCopy(let copy): copy
            }
        }
    }
}
