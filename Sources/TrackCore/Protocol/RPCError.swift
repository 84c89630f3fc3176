/// A JSON-RPC error object: a code and a message a person can act on.
public struct RPCError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public var code: Int
    public var message: String

    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) (error \(code))" }

    /// The line is not JSON.
    public static func parseError(_ detail: String) -> RPCError {
        RPCError(code: -32700, message: "request is not valid JSON: \(detail)")
    }

    /// Valid JSON, but not a JSON-RPC 2.0 request.
    public static func invalidRequest(_ detail: String) -> RPCError {
        RPCError(code: -32600, message: "not a JSON-RPC 2.0 request: \(detail)")
    }

    /// No such method.
    public static func methodNotFound(_ method: String) -> RPCError {
        let known = ControlMethod.allCases.map(\.rawValue).joined(separator: ", ")
        return RPCError(code: -32601, message: "unknown method '\(method)'; this trackd knows: \(known)")
    }

    /// The parameters do not fit the method.
    public static func invalidParams(_ method: String, _ detail: String) -> RPCError {
        RPCError(code: -32602, message: "invalid parameters for '\(method)': \(detail)")
    }

    /// The request line was longer than the protocol allows.
    public static func lineTooLong(_ limit: Int) -> RPCError {
        RPCError(code: -32001, message: "request line longer than \(limit) bytes; the connection is closed")
    }

    /// As many clients watch as the daemon lets watch: the rest of its connections stay for requests.
    public static func tooManyWatchers(_ limit: Int) -> RPCError {
        RPCError(code: -32005, message: "\(limit) clients already watch (the most trackd serves); close a 'trackctl watch' "
                 + "or a page following the car, then ask again")
    }

    /// The client sent nothing for too long (and does not watch).
    public static func idle(_ seconds: Int64) -> RPCError {
        RPCError(code: -32004, message: "no request for \(seconds) s; the connection is closed")
    }

    /// The client speaks a protocol version this daemon does not.
    public static func unsupportedVersion(client: Int, server: Int) -> RPCError {
        RPCError(code: -32002, message: "client speaks protocol \(client), this trackd speaks \(server): "
                 + "use a trackctl of the same trackd version")
    }
}

extension RPCError {
    /// The log refused a request as asked (bad input, or the wrong moment): the message says what to do.
    public static func refused(_ message: String) -> RPCError {
        RPCError(code: -32010, message: message)
    }

    /// No trip with that number.
    public static func unknownTrip(_ message: String) -> RPCError {
        RPCError(code: -32011, message: message)
    }

    /// The log could not be read or written.
    public static func storage(_ message: String) -> RPCError {
        RPCError(code: -32012, message: message)
    }

    /// The daemon cannot take the request now (it is shutting down).
    public static func unavailable(_ message: String) -> RPCError {
        RPCError(code: -32013, message: message)
    }

    /// The caller may read but not change the log.
    public static func forbidden(_ message: String) -> RPCError {
        RPCError(code: -32014, message: message)
    }
}
