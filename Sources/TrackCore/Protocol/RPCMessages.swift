/// The parts every JSON-RPC message has, read first to route a request. Members of the wrong type are noted, not
/// thrown, so that the answer can say which one is wrong.
public struct RPCEnvelope: Sendable, Decodable {
    public var jsonrpc: String?
    /// The id; `nil` when absent or `null` (`hasID` tells them apart).
    public var id: RPCID?
    /// Whether the message has an `id` member at all (a request, even with `"id": null`; else a notification).
    public var hasID = false
    /// The `id` member is neither a whole number, a string nor `null`.
    public var idIsInvalid = false
    public var method: String?
    /// The `method` member is not a string.
    public var methodIsInvalid = false
    /// The message has a `params` member (`null` included).
    public var hasParams = false

    enum CodingKeys: String, CodingKey {
        case jsonrpc, id, method, params
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        jsonrpc = try? container.decodeIfPresent(String.self, forKey: .jsonrpc)
        hasID = container.contains(.id)
        if hasID, !((try? container.decodeNil(forKey: .id)) ?? false) {
            if let number = try? container.decode(Int.self, forKey: .id) {
                id = .number(number)
            } else if let text = try? container.decode(String.self, forKey: .id) {
                id = .string(text)
            } else {
                idIsInvalid = true
            }
        }
        hasParams = container.contains(.params)
        if container.contains(.method) {
            method = try? container.decode(String.self, forKey: .method)
            methodIsInvalid = method == nil
        }
    }
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

    enum CodingKeys: String, CodingKey {
        case jsonrpc, id, result, error
    }

    /// Writes `"id": null` when the id is unknown, as JSON-RPC 2.0 asks of a response.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(jsonrpc, forKey: .jsonrpc)
        if let id { try container.encode(id, forKey: .id) } else { try container.encodeNil(forKey: .id) }
        try container.encodeIfPresent(result, forKey: .result)
        try container.encodeIfPresent(error, forKey: .error)
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
    /// Whom a client that acts for others (trackd-web: a paired device) acts for on this connection; each change it
    /// makes then records its user as `USER for WHOM` (`trackd-web for device 3 (Anna's phone)`).
    public var onBehalfOf: String?

    public init(client: String, protocol: Int = ControlProtocol.version, onBehalfOf: String? = nil) {
        self.client = client
        self.protocol = `protocol`
        self.onBehalfOf = onBehalfOf
    }

    /// The longest `on_behalf_of` taken.
    public static let maxOnBehalfOfLength = 120

    enum CodingKeys: String, CodingKey {
        case client, `protocol`
        case onBehalfOf = "on_behalf_of"
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
