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

    private let status: LiveStatus
    private let clock: @Sendable () -> MonotonicInstant
    private let log: MileageLog?
    private let tracker: TrackerInbox?
    private let access: ControlAccess
    /// Sends a month's report when asked (`report.mail`); `nil` while trackd.conf's `mail:` section names nobody.
    private let mailer: ReportMailer?

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
        case .trips:
            result = await read(call, TripsParams.self, settling: true) { log, params in
                try await log.trips(params ?? TripsParams(), now: now())
            }
        case .show:
            result = await read(call, TripIDParams.self, required: "{\"id\": 12}", settling: true) { log, params in
                try await log.tripDetail(params.id)
            }
        case .regularList:
            result = await read(call, NoParams.self) { log, _ in try await log.regularTrips() }
        case .odometer:
            result = await read(call, NoParams.self) { log, _ in
                try await log.odometerStatus()
            }
        case .profile:
            result = await read(call, NoParams.self) { log, _ in try await log.profile() }
        case .export:
            result = await read(call, TripsParams.self, settling: true) { log, params in
                try await log.report(params ?? TripsParams(), now: now(),
                                     generator: "trackd \(TrackVersion.string)")
            }
        case .verify:
            result = await read(call, NoParams.self, settling: true) { log, _ in try await log.verify() }
        case .check:
            result = await read(call, TripsParams.self, settling: true) { log, params in
                try await log.check(params ?? TripsParams(), now: now())
            }
        case .start:
            result = await change(call, StartParams.self, peer: peer, session: session) { .start($0) }
        case .stop:
            result = await change(call, StopParams.self, peer: peer, session: session, optional: StopParams()) { .stop($0) }
        case .add:
            result = await change(call, ManualTrip.self, peer: peer, session: session) { .add($0) }
        case .edit:
            result = await change(call, EditParams.self, peer: peer, session: session) { .edit($0) }
        case .delete:
            result = await change(call, DeleteParams.self, peer: peer, session: session) { .delete($0) }
        case .regularAdd:
            result = await change(call, RegularTrip.self, peer: peer, session: session) { .addRegular($0) }
        case .regularRemove:
            result = await change(call, NameParams.self, peer: peer, session: session) { .removeRegular($0) }
        case .odometerSet:
            result = await change(call, OdometerParams.self, peer: peer, session: session) { .odometer($0) }
        case .odometerCalibrate:
            result = await change(call, CalibrateParams.self, peer: peer, session: session, optional: CalibrateParams()) {
                .calibrate($0)
            }
        case .profileSet:
            result = await change(call, ProfileParams.self, peer: peer, session: session) { .profile($0) }
        case .erase:
            result = await change(call, EraseParams.self, peer: peer, session: session) { .erase($0) }
        case .placeList:
            result = await read(call, NoParams.self) { log, _ in try await log.places() }
        case .placeSuggest:
            result = await read(call, PlaceSuggestParams.self) { log, params in
                try await log.placeSuggestions(params ?? PlaceSuggestParams())
            }
        case .placeAdd:
            result = await change(call, PlaceAddParams.self, peer: peer, session: session) { .addPlace($0) }
        case .placeEdit:
            result = await change(call, PlaceEditParams.self, peer: peer, session: session) { .editPlace($0) }
        case .placeRemove:
            result = await change(call, PlaceRemoveParams.self, peer: peer, session: session) { .removePlace($0) }
        case .reportMailed:
            result = await change(call, ReportMailing.self, peer: peer, session: session) { .recordMailing($0) }
        case .reportMail:
            result = await mail(call, peer: peer)
        case .reportCopied:
            result = await change(call, StickCopy.self, peer: peer, session: session) { .recordStickCopy($0) }
        }
        guard envelope.hasID else { return .none }
        switch result {
        case .success(let value): return respond(id, result: AnyEncodable(value))
        case .failure(let error): return respond(id, error: error)
        }
    }

    /// GPS time when the daemon has it, else the system clock: "today" for periods.
    private func now() -> UTCTime {
        status.logTime(now: clock()).time
    }

    /// A request's method and raw text, for decoding its parameters.
    private struct Call {
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
    private func read<Params: Codable & Sendable>(
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
    private func read<Params: Codable & Sendable>(
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
    private func settle() async {
        guard let tracker else { return }
        _ = await Reply<Bool>.wait { reply in
            if tracker.send(.settle(reply: reply)) != .enqueued { reply.send(.success(false)) }
        }
    }

    /// Runs `body` on the log, its error as the protocol says it.
    private func withLog(
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
    private func change<Params: Codable & Sendable>(
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
            case .mailing(let mailing): mailing
            case .stickCopy(let copy): copy
            }
        }
    }

    /// `report.mail`: the month's report sent now to trackd.conf's `mail.to` and recorded (trigger `manual`), as the
    /// monthly mailer sends it; msmtp's reason when the server did not take it (nothing recorded then).
    private func mail(_ call: Call, peer: PeerCredentials?) async -> Result<any Encodable & Sendable, RPCError> {
        if let refusal = access.refusal(for: peer) { return .failure(.forbidden(refusal)) }
        let params: ReportMailParams
        switch call.params(ReportMailParams.self, required: #"{"month": "2026-11"}"#) {
        case .failure(let error): return .failure(error)
        case .success(let value): params = value
        }
        let month: CivilDate
        do {
            month = try params.firstDay()
        } catch {
            return .failure(.invalidParams(call.method.rawValue, "\(error)"))
        }
        guard let mailer else {
            return .failure(.refused("no e-mail is configured: name who gets the month's report with 'to:' in the mail: "
                                     + "section of trackd.conf (docs/mail.md), then restart trackd"))
        }
        await settle()
        do throws(ReportMailError) {
            return .success(try await mailer.send(month: month, trigger: .manual))
        } catch {
            switch error {
            case .log(let cause): return .failure(RPCError(logFailure: cause))
            case .notRecorded: return .failure(.storage(error.description))
            case .render, .send: return .failure(.refused("the report of \(params.month) was not sent: \(error)"))
            }
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

    /// What a JSON value of a Swift type is, in words.
    static func kind(of type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type: "a whole number"
        case is Double.Type, is Float.Type: "a number"
        case is String.Type: "text (a string)"
        case is Bool.Type: "true or false"
        default:
            "\(type)".hasPrefix("Dictionary") ? "an object" : "\(type)".hasPrefix("Array") ? "a list" : "\(type)"
        }
    }

    /// A short, readable reason from a decoding error.
    static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            // "Cannot initialize TripKind from invalid String value commute" (an enum's unknown value).
            if let range = context.debugDescription.firstRange(of: "value "), context.debugDescription.hasPrefix("Cannot initialize") {
                return "'\(path)' cannot be '\(context.debugDescription[range.upperBound...])'"
            }
            if context.debugDescription == "The given data was not valid JSON.", !path.isEmpty {
                return "'\(path)' cannot be read (a number too large?)"
            }
            return path.isEmpty ? context.debugDescription : "'\(path)': \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, let context):
            let path = (context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: ".")
            return "'\(path)' is missing"
        case DecodingError.typeMismatch(let type, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "'\(path)' should be \(ControlRequestHandler.kind(of: type))"
        case DecodingError.valueNotFound(let type, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "'\(path)' should be \(ControlRequestHandler.kind(of: type)), not null"
        default:
            return "\(error)"
        }
    }
}
