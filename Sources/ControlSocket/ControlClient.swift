import NIOCore
import NIOPosix
import TrackCore

/// A connection to trackd's control socket, as trackctl uses it.
public struct ControlConnection: ~Copyable {
    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private var nextID = 1

    init(inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator,
         outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
        self.inbound = inbound
        self.outbound = outbound
    }

    /// Sends a request and waits for its response; notifications that arrive first are passed to `notification`.
    public mutating func call<Params: Codable & Sendable, Result: Codable & Sendable>(
        _ method: ControlMethod, params: Params, result: Result.Type,
        notification: (ByteBuffer) -> Void = { _ in }
    ) async throws -> Result {
        try await call(methodNamed: method.rawValue, params: params, result: result, notification: notification)
    }

    /// Sends a request by the method's name (a client that passes requests on, such as trackd-web) and waits for its
    /// response; notifications that arrive first are passed to `notification`.
    public mutating func call<Params: Codable & Sendable, Result: Codable & Sendable>(
        methodNamed method: String, params: Params, result: Result.Type,
        notification: (ByteBuffer) -> Void = { _ in }
    ) async throws -> Result {
        let id = nextID
        nextID += 1
        try await outbound.write(JSONLines.encode(RPCRequest(id: .number(id), method: method, params: params)))
        while true {
            guard let line = try await receive() else { throw ControlSocketError.connectionClosed }
            let envelope: RPCEnvelope
            do {
                envelope = try JSONLines.decode(RPCEnvelope.self, from: line)
            } catch {
                throw ControlSocketError.badResponse(String(buffer: line).prefix(120).description)
            }
            if envelope.method != nil && envelope.id == nil {
                notification(line)
                continue
            }
            let response: RPCResponse<Result>
            do {
                response = try JSONLines.decode(RPCResponse<Result>.self, from: line)
            } catch {
                throw ControlSocketError.badResponse("\(error)")
            }
            if let error = response.error {
                throw ControlSocketError.remote(RPCErrorDescription(code: error.code, text: error.message))
            }
            guard let value = response.result else { throw ControlSocketError.badResponse("a response without a result") }
            return value
        }
    }

    /// The next line from the daemon, or `nil` once it has closed the connection.
    public mutating func receive() async throws -> ByteBuffer? {
        try await inbound.next()
    }
}

/// Opens connections to trackd's control socket.
public enum ControlClient {
    /// Longest response line accepted, bytes: an export of a busy month with its 1 Hz track fits several times over.
    public static let maxResponseLength = 256 * 1024 * 1024

    /// Connects to the socket at `path`, says hello, and runs `body` with the connection.
    public static func withConnection<Value: Sendable>(
        socketPath path: String, client: String, onBehalfOf: String? = nil,
        _ body: (inout ControlConnection) async throws -> Value
    ) async throws -> Value {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(unixDomainSocketPath: path) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            ByteToMessageHandler(BoundedLineDecoder(maxLength: ControlClient.maxResponseLength)))
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch let error as IOError {
            switch error.errnoCode {
            case 13, 1: throw ControlSocketError.permissionDenied(path: path)
            default: throw ControlSocketError.daemonNotRunning(path: path, reason: error.localizedDescriptionText)
            }
        } catch {
            throw ControlSocketError.daemonNotRunning(path: path, reason: "\(error)")
        }
        return try await channel.executeThenClose { inbound, outbound in
            var connection = ControlConnection(inbound: inbound.makeAsyncIterator(), outbound: outbound)
            let hello = try await connection.call(.hello, params: HelloParams(client: client, onBehalfOf: onBehalfOf),
                                                  result: HelloResult.self)
            if hello.protocol != ControlProtocol.version {
                throw ControlSocketError.remote(RPCErrorDescription(
                    code: RPCError.unsupportedVersion(client: ControlProtocol.version, server: hello.protocol).code,
                    text: RPCError.unsupportedVersion(client: ControlProtocol.version, server: hello.protocol).message))
            }
            return try await body(&connection)
        }
    }
}

extension IOError {
    /// The system's text for the error number.
    var localizedDescriptionText: String {
        switch errnoCode {
        case 2: "no socket file"
        case 111: "connection refused"
        default: description
        }
    }
}
