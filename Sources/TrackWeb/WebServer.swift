#if canImport(Glibc)
import Glibc
#endif
import ControlSocket
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import ServiceLifecycle

/// trackd-web's server: Hummingbird's HTTP/1.1 channel and router on each listening socket (the page for paired
/// devices, over HTTPS through HummingbirdTLS's channel where the socket is for it; the administration socket for
/// `trackctl web`), ending after `idleExit` without a connection (systemd starts it again at the next one) or at
/// SIGTERM. The sockets are systemd's (socket activation) or its own.
public struct WebServer: Service {
    let listeners: [WebListener]
    /// The certificate and key for the HTTPS sockets; `nil` when trackd.conf names none.
    let tls: TLSConfiguration?
    let page: RouterResponder<WebContext>
    let admin: RouterResponder<WebContext>
    let addresses: ListeningAddresses
    /// No connection for this long ends trackd-web; `nil` keeps it running.
    let idleExit: Duration?
    /// Whether something besides a connection keeps trackd-web up (a pairing code waiting to be used).
    let busy: @Sendable (ContinuousClock.Instant) -> Bool
    let logger: Logger
    private let tracker = ConnectionTracker(now: .now)

    public init(listeners: [WebListener], tls: TLSConfiguration?, page: Router<WebContext>, admin: Router<WebContext>,
                addresses: ListeningAddresses, idleExit: Duration?,
                busy: @escaping @Sendable (ContinuousClock.Instant) -> Bool, logger: Logger) {
        self.listeners = listeners
        self.tls = tls
        self.page = page.buildResponder()
        self.admin = admin.buildResponder()
        self.addresses = addresses
        self.idleExit = idleExit
        self.busy = busy
        self.logger = logger
    }

    /// A listening socket and how each connection it accepts is served.
    private struct Serving: Sendable {
        let server: NIOAsyncChannel<HTTP1Channel.Value, Never>
        let handle: @Sendable (HTTP1Channel.Value, Logger) async -> Void
    }

    public func run() async throws {
        var servers: [Serving] = []
        for listener in listeners {
            let http = HTTP1Channel(
                responder: Self.channelResponder(listener.purpose == .admin ? admin : page, secure: listener.isTLS,
                                                 logger: logger),
                configuration: HTTP1Channel.Configuration(idleTimeout: .seconds(75)))
            let serving: Serving
            if listener.isTLS {
                guard let tls else { throw WebError.noCertificate(socket: "\(listener.endpoint)", configuration: "trackd.conf") }
                serving = try await serve(listener, with: try TLSChannel(http, tlsConfiguration: tls))
            } else {
                serving = try await serve(listener, with: http)
            }
            tracker.listening(serving.server.channel)
            if listener.purpose != .admin, let address = serving.server.channel.localAddress {
                addresses.record(address, scheme: listener.isTLS ? "https" : "http")
            }
            logger.info("listening", metadata: [
                "socket": "\(listener)", "address": "\(serving.server.channel.localAddress.map { "\($0)" } ?? "?")"])
            servers.append(serving)
        }
        let tracker = self.tracker
        let logger = self.logger
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                if let idleExit {
                    group.addTask { await exitWhenIdle(after: idleExit) }
                }
                for serving in servers {
                    group.addTask {
                        await withDiscardingTaskGroup { connections in
                            do {
                                try await serving.server.executeThenClose { inbound in
                                    for try await connection in inbound {
                                        let address = connection.channel.remoteAddress?.ipAddress ?? "local"
                                        switch tracker.opened(connection.channel, from: address) {
                                        case .refused(let first):
                                            if first {
                                                logger.warning(
                                                    "too many connections from one address: more are closed at once",
                                                    metadata: ["peer": "\(address)",
                                                               "limit": "\(ConnectionTracker.perAddress)"])
                                            }
                                            // Closed through its wrapper, which must be finished before it goes.
                                            connections.addTask {
                                                try? await connection.executeThenClose { _, _ in }
                                            }
                                            continue
                                        case .accepted:
                                            break
                                        }
                                        connections.addTask {
                                            await serving.handle(connection, logger)
                                            tracker.closed(connection.channel, at: .now)
                                        }
                                    }
                                }
                            } catch {
                                logger.error("a listening socket failed", metadata: ["error": "\(error)"])
                            }
                        }
                    }
                }
            }
        } onGracefulShutdown: {
            tracker.stop()
        }
    }

    /// Waits until no connection has been open for `idle` and nothing keeps trackd-web busy, then closes its sockets.
    private func exitWhenIdle(after idle: Duration) async {
        let tick = min(idle / 4, .seconds(5))
        var saidBusy = false
        while !tracker.isStopping {
            try? await Task.sleep(for: tick)
            let now = ContinuousClock.now
            guard let quiet = tracker.idleDuration(at: now), quiet >= idle else {
                saidBusy = false
                continue
            }
            if !busy(now) {
                logger.info("no request for a while: exiting (systemd starts trackd-web again at the next one)",
                            metadata: ["idle_s": "\(quiet.components.seconds)"])
                tracker.stop()
            } else if !saidBusy {
                logger.info("no request for a while, but a pairing code waits to be used: staying up for it",
                            metadata: ["idle_s": "\(quiet.components.seconds)"])
                saidBusy = true
            }
        }
    }

    /// The listening socket for `listener`, with `child` (Hummingbird's HTTP/1.1 channel, alone or inside its TLS
    /// channel) on each connection it accepts.
    private func serve<Child: ServerChildChannel>(_ listener: WebListener, with child: Child) async throws -> Serving
    where Child.Value == HTTP1Channel.Value {
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
        let logger = self.logger
        let setup: @Sendable (any Channel) -> EventLoopFuture<HTTP1Channel.Value> = { channel in
            child.setup(channel: channel, logger: logger)
        }
        let server = try await bind(listener, bootstrap: bootstrap, setup: setup)
        return Serving(server: server) { value, logger in await child.handle(value: value, logger: logger) }
    }

    /// Binds `listener`'s socket (or takes systemd's).
    private func bind(_ listener: WebListener, bootstrap: ServerBootstrap,
                      setup: @escaping @Sendable (any Channel) -> EventLoopFuture<HTTP1Channel.Value>)
        async throws -> NIOAsyncChannel<HTTP1Channel.Value, Never> {
        do {
            switch listener.endpoint {
            case .passed(let descriptor, _):
                return try await bootstrap.bind(descriptor, serverBackPressureStrategy: nil, childChannelInitializer: setup)
            case .address(let host, let port):
                return try await bootstrap.bind(host: host, port: port, serverBackPressureStrategy: nil,
                                                childChannelInitializer: setup)
            case .unixPath(let path):
                // Set up 0660 (the group may use it) where nobody else can reach it, then put in place (replacing a
                // socket left behind): nobody else can connect before its mode is set, and the umask is not touched.
                let server = try await PrivateSocketBinding.bind(at: path, { privatePath in
                    try await bootstrap.bind(unixDomainSocketPath: privatePath, serverBackPressureStrategy: nil,
                                             childChannelInitializer: setup)
                }, setUp: { privatePath in
                    guard chmod(privatePath, 0o660) == 0 else {
                        throw WebError.cannotListen(path, reason: String(cString: strerror(errno)))
                    }
                }, close: { server in try? await server.channel.close() })
                return server
            }
        } catch let error as WebError {
            throw error
        } catch {
            throw WebError.cannotListen("\(listener.endpoint)", reason: "\(error)")
        }
    }

    /// Hummingbird's request handling for one router, as its `Application` does it: a context per request, the
    /// router's answer (an error that is not an HTTP answer becomes a 500 with its sentence), written out.
    static func channelResponder(_ responder: RouterResponder<WebContext>, secure: Bool,
                                 logger: Logger) -> HTTP1Channel.Responder {
        { request, responseWriter, channel in
            var context = WebContext(source: ApplicationRequestContextSource(channel: channel, logger: logger))
            context.isSecure = secure
            let response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch let error as any HTTPResponseError {
                response = try error.response(from: request, context: context)
            } catch {
                response = WebResponse.failed(error, logger: logger)
            }
            try await responseWriter.write(response: response.head, body: response.body)
        }
    }
}
