/// What can go wrong on the control socket, from either end.
public enum ControlSocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A line longer than the protocol allows.
    case lineTooLong(limit: Int)
    /// No daemon listens at the path (no socket file, or nobody accepts).
    case daemonNotRunning(path: String, reason: String)
    /// The socket exists but this user may not use it.
    case permissionDenied(path: String)
    /// The other end closed the connection before answering.
    case connectionClosed
    /// The daemon answered something that is not a JSON-RPC response.
    case badResponse(String)
    /// The daemon answered with an error.
    case remote(RPCErrorDescription)

    public var description: String {
        switch self {
        case .lineTooLong(let limit):
            "line longer than \(limit) bytes"
        case .daemonNotRunning(let path, let reason):
            "trackd is not running at \(path) (\(reason)); start it, give its socket with --socket, or read a log file with --db PATH"
        case .permissionDenied(let path):
            "permission denied on \(path): add yourself to the 'trackd' group (sudo usermod -aG trackd $USER) and log in again"
        case .connectionClosed:
            "trackd closed the connection"
        case .badResponse(let detail):
            "unexpected answer from trackd: \(detail)"
        case .remote(let error):
            error.text
        }
    }
}

/// An error the daemon reported, kept as text with its code.
public struct RPCErrorDescription: Sendable, Hashable {
    public var code: Int
    public var text: String

    public init(code: Int, text: String) {
        self.code = code
        self.text = text
    }
}
