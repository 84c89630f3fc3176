/// A socket trackd-web serves, and what it serves there.
public struct WebListener: Sendable, CustomStringConvertible {
    /// Where the socket comes from.
    public enum Endpoint: Sendable, CustomStringConvertible {
        /// A listening socket systemd passed (socket activation), with its `FileDescriptorName=`.
        case passed(descriptor: CInt, name: String)
        /// An address trackd-web binds itself (`--listen`), port 0 for any free one.
        case address(host: String, port: Int)
        /// A Unix socket trackd-web makes itself (`--admin-socket`).
        case unixPath(String)

        public var description: String {
            switch self {
            case .passed(let descriptor, let name): "socket \(descriptor) ('\(name)') from systemd"
            case .address(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            case .unixPath(let path): path
            }
        }
    }

    /// What is served.
    public enum Purpose: String, Sendable {
        /// The page, for paired devices, over plain HTTP.
        case page
        /// The page over HTTPS (the certificate and key of trackd.conf's `web:` section).
        case securePage = "page over HTTPS"
        /// `trackctl web`'s requests (pairing codes, devices, revocation).
        case admin
    }

    public var endpoint: Endpoint
    public var purpose: Purpose

    public init(endpoint: Endpoint, purpose: Purpose) {
        self.endpoint = endpoint
        self.purpose = purpose
    }

    /// Whether connections to it begin with a TLS handshake.
    public var isTLS: Bool { purpose == .securePage }

    public var description: String { "\(endpoint) (\(purpose.rawValue))" }
}
