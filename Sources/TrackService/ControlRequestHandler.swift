import ControlSocket
import Foundation
import NIOCore
import TrackCore

/// Answers one control request line. Reads the live snapshot; changes nothing.
public struct ControlRequestHandler: Sendable {
    /// What to do with a request line.
    public enum Outcome {
        /// Write this line back.
        case respond(ByteBuffer)
        /// Write this line back, then stream events to this client.
        case respondAndWatch(ByteBuffer)
        /// Nothing to write (a JSON-RPC notification).
        case none
    }

    private let status: LiveStatus
    private let clock: @Sendable () -> MonotonicInstant

    public init(status: LiveStatus, clock: @escaping @Sendable () -> MonotonicInstant) {
        self.status = status
        self.clock = clock
    }

    public func handle(_ line: ByteBuffer) -> Outcome {
        let data = Data(line.readableBytesView)
        let envelope: RPCEnvelope
        do {
            envelope = try JSONDecoder().decode(RPCEnvelope.self, from: data)
        } catch {
            return respond(nil, error: .parseError(ControlRequestHandler.reason(error)))
        }
        let id = envelope.id
        guard envelope.jsonrpc == "2.0" else {
            return respond(id, error: .invalidRequest("\"jsonrpc\": \"2.0\" is missing"))
        }
        guard let name = envelope.method else {
            return respond(id, error: .invalidRequest("no \"method\""))
        }
        guard let method = ControlMethod(rawValue: name) else {
            return id == nil ? .none : respond(id, error: .methodNotFound(name))
        }
        let outcome: Outcome
        switch method {
        case .hello:
            switch decodeParams(HelloParams.self, from: data, method: name) {
            case .failure(let error): return respond(id, error: error)
            case .success(let params):
                if let params, params.protocol != ControlProtocol.version {
                    return respond(id, error: .unsupportedVersion(client: params.protocol, server: ControlProtocol.version))
                }
                outcome = respond(id, result: HelloResult(
                    server: "trackd \(TrackVersion.string)", protocol: ControlProtocol.version,
                    methods: ControlMethod.allCases.map(\.rawValue)))
            }
        case .status:
            if case .failure(let error) = decodeParams(NoParams.self, from: data, method: name) {
                return respond(id, error: error)
            }
            outcome = respond(id, result: status.snapshot(now: clock()))
        case .watch:
            if case .failure(let error) = decodeParams(NoParams.self, from: data, method: name) {
                return respond(id, error: error)
            }
            guard case .respond(let line) = respond(id, result: WatchResult(watching: ["fix", "source"])) else {
                return .none
            }
            return .respondAndWatch(line)
        }
        return id == nil ? .none : outcome
    }

    private func decodeParams<Params: Codable & Sendable>(
        _ type: Params.Type, from data: Data, method: String
    ) -> Result<Params?, RPCError> {
        do {
            return .success(try JSONDecoder().decode(RPCRequest<Params>.self, from: data).params)
        } catch {
            return .failure(.invalidParams(method, ControlRequestHandler.reason(error)))
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

    /// A short, readable reason from a decoding error.
    static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            return context.debugDescription
        case DecodingError.keyNotFound(let key, _):
            return "'\(key.stringValue)' is missing"
        case DecodingError.typeMismatch(let type, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "'\(path)' should be \(type)"
        case DecodingError.valueNotFound(let type, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "'\(path)' should be \(type), not null"
        default:
            return "\(error)"
        }
    }
}
