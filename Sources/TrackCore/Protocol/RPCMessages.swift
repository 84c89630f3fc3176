/// The parts every JSON-RPC message has, read first to route a request.
public struct RPCEnvelope: Sendable, Decodable {
    public var jsonrpc: String?
    public var id: RPCID?
    public var method: String?
}

/// A request with typed parameters.
public struct RPCRequest<Params: Codable & Sendable>: Sendable, Codable {
    public var jsonrpc = "2.0"
    public var id: RPCID?
    public var method: String
    public var params: Params?

    public init(id: RPCID?, method: String, params: Params?) {
        self.id = id
        self.method = method
        self.params = params
    }
}

/// A response: either a result or an error.
public struct RPCResponse<Result: Codable & Sendable>: Sendable, Codable {
    public var jsonrpc = "2.0"
    public var id: RPCID?
    public var result: Result?
    public var error: RPCError?

    public init(id: RPCID?, result: Result) {
        self.id = id
        self.result = result
    }

    public init(id: RPCID?, error: RPCError) {
        self.id = id
        self.error = error
    }
}

/// A notification the daemon sends to watchers (no id, no response).
public struct RPCNotification<Params: Codable & Sendable>: Sendable, Codable {
    public var jsonrpc = "2.0"
    public var method: String
    public var params: Params

    public init(method: String, params: Params) {
        self.method = method
        self.params = params
    }
}

/// No parameters.
public struct NoParams: Sendable, Codable, Hashable {
    public init() {}
}

/// `hello` parameters.
public struct HelloParams: Sendable, Codable, Hashable {
    public var client: String
    public var `protocol`: Int

    public init(client: String, protocol: Int = ControlProtocol.version) {
        self.client = client
        self.protocol = `protocol`
    }
}

/// `hello` result.
public struct HelloResult: Sendable, Codable, Hashable {
    public var server: String
    public var `protocol`: Int
    public var methods: [String]

    public init(server: String, protocol: Int, methods: [String]) {
        self.server = server
        self.protocol = `protocol`
        self.methods = methods
    }
}

/// `watch` result; then notifications follow.
public struct WatchResult: Sendable, Codable, Hashable {
    public var watching: [String]

    public init(watching: [String]) {
        self.watching = watching
    }
}

/// `lagged` notification: the watcher read too slowly and this many events were dropped for it.
public struct LaggedParams: Sendable, Codable, Hashable {
    public var dropped: Int

    public init(dropped: Int) {
        self.dropped = dropped
    }
}
