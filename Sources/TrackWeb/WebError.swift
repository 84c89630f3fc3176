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

    public var description: String {
        switch self {
        case .deviceStore(let path, let reason):
            "cannot use the paired devices' file \(path): \(reason)"
        case .cannotListen(let address, let reason):
            "cannot listen on \(address): \(reason)"
        case .unknownSocket(let name):
            "systemd passed a socket named '\(name)'; trackd-web knows 'http' (the page) and 'admin' (trackctl web); "
                + "set FileDescriptorName= in the socket unit"
        case .nothingToListenOn:
            "nothing to listen on: start trackd-web through its socket units (systemctl enable --now "
                + "trackd-web.socket trackd-web-admin.socket) or give --listen and --admin-socket"
        }
    }
}
