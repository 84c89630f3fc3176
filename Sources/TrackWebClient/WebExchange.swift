import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP/1.1 request and its response over a fresh connection, through swift-nio's HTTP codec: how `trackctl web`
/// talks to trackd-web's administration socket, and how the tests talk to the page.
public enum WebExchange {
    /// Where the request goes.
    public enum Target: Sendable, CustomStringConvertible {
        case unixSocket(String)
        case tcp(host: String, port: Int)

        public var description: String {
            switch self {
            case .unixSocket(let path): path
            case .tcp(let host, let port): "\(host):\(port)"
            }
        }
    }

    /// A response: its status, its headers (names in lower case, in order) and its body.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        /// The first value of header `name` (any case).
        public func header(_ name: String) -> String? {
            headers.first { $0.name == name.lowercased() }?.value
        }

        /// Every value of header `name` (any case).
        public func headers(_ name: String) -> [String] {
            headers.filter { $0.name == name.lowercased() }.map(\.value)
        }

        /// The body as text.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends `method path` with `headers` and `body` to `target` and returns the whole response (`Host` is added
    /// when missing). A response longer than `maxBody` bytes is cut there.
    public static func send(
        _ method: String, _ path: String, to target: Target, headers: [(String, String)] = [], body: [UInt8] = [],
        maxBody: Int = 64 * 1024 * 1024
    ) async throws -> Response {
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        let initializer: @Sendable (any Channel) -> EventLoopFuture<NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>> = { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                return try NIOAsyncChannel(wrappingChannelSynchronously: channel)
            }
        }
        let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        switch target {
        case .unixSocket(let path):
            channel = try await bootstrap.connect(unixDomainSocketPath: path, channelInitializer: initializer)
        case .tcp(let host, let port):
            channel = try await bootstrap.connect(host: host, port: port, channelInitializer: initializer)
        }
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: path)
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        if !head.headers.contains(name: "Host") {
            switch target {
            case .unixSocket: head.headers.add(name: "Host", value: "localhost")
            case .tcp(let host, let port): head.headers.add(name: "Host", value: "\(host):\(port)")
            }
        }
        head.headers.add(name: "Content-Length", value: String(body.count))
        head.headers.add(name: "Connection", value: "close")
        return try await channel.executeThenClose { inbound, outbound in
            // The whole request in one write and one flush: a server that answers before reading the body (401 to a
            // request without a session) and closes, as `Connection: close` asks, must not find half a request
            // still to be written ("I/O on closed channel").
            var parts: [HTTPClientRequestPart] = [.head(head)]
            if !body.isEmpty { parts.append(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
            parts.append(.end(nil))
            try await outbound.write(contentsOf: parts)
            var response = Response(status: 0, headers: [], body: [])
            for try await part in inbound {
                switch part {
                case .head(let responseHead):
                    response.status = Int(responseHead.status.code)
                    response.headers = responseHead.headers.map { (name: $0.name.lowercased(), value: $0.value) }
                case .body(let buffer):
                    response.body += buffer.readableBytesView.prefix(maxBody - response.body.count)
                case .end:
                    return response
                }
            }
            return response
        }
    }
}
