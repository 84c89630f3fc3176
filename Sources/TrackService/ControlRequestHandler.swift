import ControlSocket
import FoundationEssentials
import NIOCore
import TrackCore
import TrackStore

/// Answers one control request line. Reads go straight to the live snapshot or the log; changes go to the tracker,
/// which carries them out in order.
public struct ControlRequestHandler: Sendable {
    /// What to do with a request line.
    public enum Outcome: Sendable {
        /// Write this line back.
        case respond(ByteBuffer)
        /// Write this line back, then stream events to this client; where the server has as many watchers as it
        /// allows, it refuses request `id` instead.
        case respondAndWatch(ByteBuffer, id: RPCID?)
        /// Nothing to write (a JSON-RPC notification).
        case none
    }

    let status: LiveStatus
    let clock: @Sendable () -> MonotonicInstant
    let log: MileageLog?
    let tracker: TrackerInbox?
    let access: ControlAccess
    /// Sends a month's report when asked (`report.mail`); `nil` while trackd.conf's `mail:` section names nobody.
    let mailer: ReportMailer?

    public init(status: LiveStatus, clock: @escaping @Sendable () -> MonotonicInstant, log: MileageLog? = nil,
                tracker: TrackerInbox? = nil, access: ControlAccess = .everyone, mailer: ReportMailer? = nil) {
        self.status = status
        self.clock = clock
        self.log = log
        self.tracker = tracker
        self.access = access
        self.mailer = mailer
    }

    /// Answers `line` from `peer` (the Unix user who connected), on a connection that keeps nothing between lines.
    public func handle(_ line: ByteBuffer, peer: PeerCredentials? = nil) async -> Outcome {
        var session = ControlSession()
        return await handle(line, peer: peer, session: &session)
    }

    /// Answers `line` from `peer` on a connection whose `session` (what its `hello` said) lasts across its lines.
    public func handle(_ line: ByteBuffer, peer: PeerCredentials?, session: inout ControlSession) async -> Outcome {
        guard JSONNesting.depth(of: line.readableBytesView, stoppingAbove: ControlProtocol.maxDepth) <= ControlProtocol.maxDepth else {
            return respond(nil, error: .parseError("arrays and objects nested deeper than \(ControlProtocol.maxDepth) levels"))
        }
        let data = Data(line.readableBytesView)
        let envelope: RPCEnvelope
        do {
            envelope = try JSONDecoder().decode(RPCEnvelope.self, from: data)
        } catch DecodingError.typeMismatch {
            // JSON, but not an object.
            let batch = data.first { !" \t\r\n".utf8.contains($0) } == UInt8(ascii: "[")
            return respond(nil, error: .invalidRequest(batch ? "batches (JSON arrays) are not taken; send one request per line"
                                                            : "a request is a JSON object"))
        } catch {
            return respond(nil, error: .parseError(ControlRequestHandler.reason(error)))
        }
        let id = envelope.id
        guard !envelope.idIsInvalid else {
            return respond(nil, error: .invalidRequest("\"id\" must be a whole number or a string"))
        }
        guard envelope.jsonrpc == "2.0" else {
            return respond(id, error: .invalidRequest("\"jsonrpc\": \"2.0\" is missing"))
        }
        guard !envelope.methodIsInvalid else {
            return respond(id, error: .invalidRequest("\"method\" must be a string"))
        }
        guard let name = envelope.method else {
            return respond(id, error: .invalidRequest("no \"method\""))
        }
        guard let method = ControlMethod(rawValue: name) else {
            return envelope.hasID ? respond(id, error: .methodNotFound(name)) : .none
        }
        let call = Call(data: data, method: method, hasParams: envelope.hasParams)
        let result: Result<any Encodable & Sendable, RPCError>
        switch method {
        case .hello:
            result = call.params(HelloParams.self).flatMap { (params: HelloParams?) -> Result<HelloParams?, RPCError> in
                if let params, params.protocol != ControlProtocol.version {
                    return .failure(.unsupportedVersion(client: params.protocol, server: ControlProtocol.version))
                }
                if let whom = params?.onBehalfOf {
                    guard !whom.isEmpty, whom.count <= HelloParams.maxOnBehalfOfLength,
                          !whom.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                        return .failure(.invalidParams("hello", "'on_behalf_of' names whom the client acts for in one "
                                                       + "line of at most \(HelloParams.maxOnBehalfOfLength) characters"))
                    }
                }
                return .success(params)
            }.map { (params: HelloParams?) -> any Encodable & Sendable in
                if let params { session.onBehalfOf = params.onBehalfOf }
                return HelloResult(server: "trackd \(TrackVersion.string)", protocol: ControlProtocol.version,
                                   methods: ControlMethod.allCases.map(\.rawValue))
            }
        case .status:
            if case .failure(let error) = call.params(NoParams.self) { return respond(id, error: error) }
            guard envelope.hasID else { return .none }
            // Asked most often (dashboards poll it): written without JSONEncoder, which costs more than all else.
            return .respond(ByteBuffer(bytes: RPCResponse(id: id, result: status.snapshot(now: clock())).jsonLine))
        case .watch:
            if case .failure(let error) = call.params(NoParams.self) { return respond(id, error: error) }
            guard case .respond(let line) = respond(id, result: WatchResult(watching: ["fix", "source", "trip", "alert"])) else { return .none }
            return .respondAndWatch(line, id: id)
        case .trips, .tripsOverview, .show, .start, .stop, .add, .edit, .delete, .regularList, .regularAdd, .regularRemove:
            result = await trips(call, peer: peer, session: session)
        case .odometer, .odometerSet, .odometerCalibrate, .profile, .profileSet, .erase:
            result = await car(call, peer: peer, session: session)
        case .placeList, .placeSuggest, .placeAdd, .placeEdit, .placeRemove:
            result = await places(call, peer: peer, session: session)
        case .ruleList, .ruleSuggest, .ruleAdd, .ruleEdit, .ruleDelete, .confirm:
            result = await rules(call, peer: peer, session: session)
        case .export, .verify, .check, .reportMailed, .reportMail, .reportCopied:
            result = await reports(call, peer: peer, session: session)
        }
        guard envelope.hasID else { return .none }
        switch result {
        case .success(let value): return respond(id, result: AnyEncodable(value))
        case .failure(let error): return respond(id, error: error)
        }
    }

    private func respond(_ id: RPCID?, error: RPCError) -> Outcome {
        encode(RPCResponse<NoParams>(id: id, error: error))
    }

    private func respond<Result: Codable & Sendable>(_ id: RPCID?, result: Result) -> Outcome {
        encode(RPCResponse(id: id, result: result))
    }

    private func encode(_ value: some Encodable) -> Outcome {
        do {
            return .respond(try JSONLines.encode(value))
        } catch {
            return .respond(ByteBuffer(string: #"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}"# + "\n"))
        }
    }
}
