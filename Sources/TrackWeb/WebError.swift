/// What stops trackd-web, in words its administrator can act on.
public enum WebError: Error, Sendable, CustomStringConvertible {
    /// The paired devices' file cannot be opened or written.
    case deviceStore(path: String, reason: String)
    /// A listening address or socket cannot be used.
    case cannotListen(String, reason: String)
    /// systemd passed a socket of a name trackd-web does not know.
    case unknownSocket(name: String)
    /// Neither systemd passed sockets nor `--listen` names an address.
    case nothingToListenOn
    /// The certificate or key for HTTPS cannot be used.
    case tls(file: String, reason: String)
    /// An HTTPS socket but no certificate and key in trackd.conf.
    case noCertificate(socket: String, configuration: String)
    /// trackd.conf cannot be read or is wrong.
    case configuration(String)

    public var description: String {
        switch self {
        case .deviceStore(let path, let reason):
            "cannot use the paired devices' file \(path): \(reason)"
        case .cannotListen(let address, let reason):
            "cannot listen on \(address): \(reason)"
        case .unknownSocket(let name):
            "systemd passed a socket named '\(name)'; trackd-web knows 'http' (the page), 'https' (the page over "
                + "HTTPS) and 'admin' (trackctl web); "
                + "set FileDescriptorName= in the socket unit"
        case .nothingToListenOn:
            "nothing to listen on: start trackd-web through its socket units (systemctl enable --now "
                + "trackd-web.socket trackd-web-admin.socket) or give --listen and --admin-socket"
        case .tls(let file, let reason):
            "cannot serve HTTPS with \(file): \(reason)"
        case .noCertificate(let socket, let configuration):
            "\(socket) is for HTTPS, but \(configuration) names no certificate: give web.certificate and web.key "
                + "(docs/web.md, \"HTTPS\"), or disable trackd-web-https.socket"
        case .configuration(let reason):
            reason
        }
    }
}
