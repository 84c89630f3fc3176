/// Why a form could not be posted.
public enum HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    case setup(String)
    /// No answer: the server unreachable, a refused connection, TLS, a time-out (libcurl's words).
    case transport(url: String, reason: String)

    public var description: String {
        switch self {
        case .setup(let reason): "cannot set up the HTTP client: \(reason)"
        case .transport(let url, let reason): "no answer from \(url): \(reason)"
        }
    }
}
