#if canImport(Glibc)
import Glibc
#endif
import CSystemd

/// The listening sockets systemd passed (socket activation, sd_listen_fds(3)), told apart by their
/// `FileDescriptorName=`: `http` is the page, `https` the page over HTTPS, `admin` `trackctl web`'s socket.
public enum SocketActivation {
    /// What each `FileDescriptorName=` serves.
    static let purposes: [String: WebListener.Purpose] = ["http": .page, "https": .securePage, "admin": .admin]

    /// The passed sockets as listeners (libsystemd sets their close-on-exec flag and clears `LISTEN_*` from the
    /// environment); empty when trackd-web was not started by a socket unit. A socket of another name is refused:
    /// whether to speak TLS on it would be a guess.
    public static func passedListeners() throws(WebError) -> [WebListener] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = Int(sd_listen_fds_with_names(1, &names))
        guard count > 0 else { return [] }
        defer {
            for index in 0..<count { free(names?[index]) }
            free(names)
        }
        var listeners: [WebListener] = []
        for index in 0..<count {
            let descriptor = SD_LISTEN_FDS_START + CInt(index)
            let name = names?[index].map { String(cString: $0) } ?? ""
            guard let purpose = purposes[name] else { throw .unknownSocket(name: name) }
            listeners.append(WebListener(endpoint: .passed(descriptor: descriptor, name: name), purpose: purpose))
        }
        return listeners
    }
}
