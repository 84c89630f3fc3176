import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import CPeerCredentials
import ControlSocket
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import TrackCore

/// Serves the control protocol on a Unix socket: newline-delimited JSON-RPC 2.0, bounded lines, bounded clients.
public struct ControlServer: Service {
    /// Limits of the server.
    public struct Limits: Sendable {
        public var maxLineLength = ControlProtocol.maxLineLength
        public var maxClients = 64
        /// Of those, at most this many may watch (`trackctl watch`, the page's live events, the uplink's own feed
        /// is in-process): the rest stay for requests, so that `trackctl` and the page's buttons always get through.
        public var maxWatchers = 32
        /// A client that is not watching is closed after this long without a request, seconds.
        public var idleTimeout: Int64 = 60

        public init() {}
    }

    private let socketPath: String
    private let handler: ControlRequestHandler
    private let hub: WatchHub
    private let limits: Limits
    private let access: ControlAccess
    private let logger: Logger
    private let onListening: @Sendable () -> Void
    /// Told each listening channel as it is made (for tests: a fault put into it).
    var listeningChannel: (@Sendable (any Channel) -> Void)?

    /// `access` names the control group, which the socket is handed to (`ControlSocketFile`).
    public init(socketPath: String, handler: ControlRequestHandler, hub: WatchHub, limits: Limits = Limits(),
                access: ControlAccess = .everyone, logger: Logger, onListening: @escaping @Sendable () -> Void = {}) {
        self.socketPath = socketPath
        self.handler = handler
        self.hub = hub
        self.limits = limits
        self.access = access
        self.logger = logger
        self.onListening = onListening
    }

    /// Serves until trackd stops. If the listening socket fails (the accepting ends or throws while trackd is not
    /// stopping), the failure is logged, the clients of the moment are let go and the socket is made again: a broken
    /// control socket must not end the recording (it once took trackd down in the middle of a drive, orderly).
    public func run() async throws {
        // Only a socket that listened can fail so: the first listening is told once.
        var first = true
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await listen(first: first)
                return
            } catch let failure as ControlServerError where failure.isAcceptingFailure {
                first = false
                guard !Task.isCancelled && !Task.isShuttingDownGracefully else { return }
                logger.error("control socket failed; listening again", metadata: ["socket": "\(socketPath)", "error": "\(failure)"])
                // A moment, so that a socket that fails at once does not spin; cut short by the stop.
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(500)) }
            }
        }
    }

    /// Listens until trackd stops (returns) or the listening socket fails (throws `.stoppedAccepting`).
    private func listen(first: Bool) async throws {
        try await ControlServer.claim(socketPath)
        let (server, warnings) = try await bind()
        defer { unlink(socketPath) }
        for warning in warnings {
            logger.warning("\(warning)", metadata: ["socket": "\(socketPath)"])
        }
        logger.notice("control socket listening", metadata: ["socket": "\(socketPath)"])
        listeningChannel?(server.channel)
        if first { onListening() }
        let clients = ClientCount()
        let watchers = ClientCount()
        do {
            try await cancelWhenGracefulShutdown {
                try await withThrowingDiscardingTaskGroup { group in
                    do {
                        try await server.executeThenClose { connections in
                            for try await connection in connections {
                                group.addTask {
                                    await self.serve(connection, clients: clients, watchers: watchers)
                                }
                            }
                        }
                    } catch is CancellationError {
                        throw CancellationError()
                    } catch {
                        throw ControlServerError.stoppedAccepting("\(error)")
                    }
                    // The accepting ended without a stop: the listening socket was closed under trackd. The clients
                    // connected through it are let go (the group cancels them) with it.
                    guard Task.isCancelled || Task.isShuttingDownGracefully else {
                        throw ControlServerError.stoppedAccepting("the listening socket closed")
                    }
                }
            }
        } catch is CancellationError {
            // Shutdown.
        }
    }

    /// Binds the socket where nobody else can reach it, hands it to the control group with its mode checked, and
    /// only then puts it at its path (`PrivateSocketBinding`; the process's umask is not touched). Returns the
    /// warnings to log (the group could not be set, or the socket's folder keeps the group out).
    func bind() async throws -> (NIOAsyncChannel<Connection, Never>, [String]) {
        var warnings: [String] = []
        let server = try await PrivateSocketBinding.bind(at: socketPath, { path in try await bind(path) }, setUp: { path in
            warnings = try ControlSocketFile.secure(path, group: access.groupID, groupName: access.groupName)
        }, close: { server in try? await server.channel.close() })
        // The group's way to the socket, once the socket is the group's.
        var info = stat()
        if let gid = access.groupID, lstat(socketPath, &info) == 0, info.st_gid == gid,
           let warning = ControlSocketFile.closedFolder(of: socketPath, to: gid, groupName: access.groupName ?? "\(gid)") {
            warnings.append(warning)
        }
        return (server, warnings)
    }

    /// The listening socket at `path`.
    private func bind(_ path: String) async throws -> NIOAsyncChannel<Connection, Never> {
        let maxLineLength = limits.maxLineLength
        let idleTimeout = limits.idleTimeout
        return try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 128)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .bind(unixDomainSocketPath: path) { channel in
                ControlServer.peerCredentials(of: channel).flatMapThrowing { peer in
                    let idle = IdleClientCloser(seconds: idleTimeout)
                    try channel.pipeline.syncOperations.addHandlers(
                        IdleStateHandler(readTimeout: .seconds(idleTimeout)), idle,
                        ByteToMessageHandler(BoundedLineDecoder(maxLength: maxLineLength)))
                    return Connection(channel: try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel),
                                      peer: peer, idle: idle)
                }
            }
    }

    /// An accepted client and who it is.
    struct Connection: Sendable {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        let peer: PeerCredentials?
        /// Told when the client starts watching (a watcher is never idle).
        let idle: IdleClientCloser
    }

    /// The peer's credentials (`SO_PEERCRED`), or `nil` where the socket cannot say.
    static func peerCredentials(of channel: any Channel) -> EventLoopFuture<PeerCredentials?> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeSucceededFuture(nil)
        }
        let credentials: EventLoopFuture<trackd_peer_credentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(trackd_sol_socket()), name: SocketOptionName(trackd_so_peercred()))
        return credentials
            .map { credentials -> PeerCredentials? in
                PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
            }
            .recover { _ -> PeerCredentials? in nil }
    }

    /// Serves one client until it closes, breaks the protocol, or the server stops.
    private func serve(_ accepted: Connection, clients: ClientCount, watchers: ClientCount) async {
        let connection = accepted.channel
        guard clients.enter(limit: limits.maxClients) else {
            try? await connection.executeThenClose { _, outbound in
                try await outbound.write(JSONLines.encode(RPCResponse<NoParams>(
                    id: nil, error: RPCError(code: -32003, message: "too many clients (\(limits.maxClients)); try again later"))))
            }
            return
        }
        defer { clients.leave() }
        do {
            try await connection.executeThenClose { inbound, outbound in
                try await withThrowingDiscardingTaskGroup { group in
                    var watching = false
                    defer { if watching { watchers.leave() } }
                    var session = ControlSession()
                    do {
                        for try await line in inbound {
                            accepted.idle.answering.add(1, ordering: .relaxed)
                            defer { accepted.idle.answering.subtract(1, ordering: .relaxed) }
                            switch await handler.handle(line, peer: accepted.peer, session: &session) {
                            case .respond(let reply):
                                try await outbound.write(reply)
                            case .respondAndWatch(let reply, let id):
                                guard !watching else {
                                    try await outbound.write(reply)
                                    break
                                }
                                guard watchers.enter(limit: limits.maxWatchers) else {
                                    try await outbound.write(JSONLines.encode(RPCResponse<NoParams>(
                                        id: id, error: .tooManyWatchers(limits.maxWatchers))))
                                    break
                                }
                                // Subscribed before the answer goes out: every event after it reaches the client.
                                watching = true
                                accepted.idle.watching.store(true, ordering: .relaxed)
                                let subscription = hub.subscribe()
                                do {
                                    try await outbound.write(reply)
                                } catch {
                                    hub.unsubscribe(subscription.id)
                                    throw error
                                }
                                group.addTask { try await self.forwardEvents(subscription, to: outbound) }
                            case .none:
                                break
                            }
                        }
                    } catch ControlSocketError.lineTooLong(let limit) {
                        try? await outbound.write(JSONLines.encode(RPCResponse<NoParams>(id: nil, error: .lineTooLong(limit))))
                    }
                    group.cancelAll()
                }
            }
        } catch {
            logger.debug("control client ended", metadata: ["error": "\(error)"])
        }
    }

    /// Streams hub events to a watcher until it goes away; tells it when it fell behind.
    private func forwardEvents(_ subscription: (id: Int, events: AsyncStream<WatchHub.Event>),
                               to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        let (id, events) = subscription
        defer { hub.unsubscribe(id) }
        for await event in events {
            let dropped = hub.takeDropped(id)
            if dropped > 0 {
                try await outbound.write(JSONLines.encode(RPCNotification(method: "lagged", params: LaggedParams(dropped: dropped))))
            }
            switch event {
            case .fix(let fix):
                try await outbound.write(JSONLines.encode(RPCNotification(method: "fix", params: fix)))
            case .source(let source):
                try await outbound.write(JSONLines.encode(RPCNotification(method: "source", params: source)))
            case .trip(let notice):
                try await outbound.write(JSONLines.encode(RPCNotification(method: "trip", params: notice)))
            case .alert(let alert):
                try await outbound.write(JSONLines.encode(RPCNotification(method: "alert", params: alert)))
            case .obd(let obd):
                try await outbound.write(JSONLines.encode(RPCNotification(method: "obd", params: obd)))
            }
        }
    }

    /// Makes the socket path free: a leftover socket file of a dead daemon is removed; a live daemon is an error.
    static func claim(_ path: String) async throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw ControlServerError.pathInUse(path, "it exists and is not a socket")
        }
        let alive = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(unixDomainSocketPath: path).get()
        if let alive {
            try? await alive.close()
            throw ControlServerError.pathInUse(path, "another trackd is listening there")
        }
        unlink(path)
    }
}
