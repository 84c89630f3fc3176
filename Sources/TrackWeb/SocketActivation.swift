#if canImport(Glibc)
import Glibc
#endif
import CSystemd

/// The listening sockets systemd passed (socket activation, sd_listen_fds(3)), told apart by their
/// `FileDescriptorName=`: `admin` is `trackctl web`'s socket, every other name the page's.
public enum SocketActivation {
    /// The passed sockets as listeners (libsystemd sets their close-on-exec flag and clears `LISTEN_*` from the
    /// environment); empty when trackd-web was not started by a socket unit.
    public static func passedListeners() -> [WebListener] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = Int(sd_listen_fds_with_names(1, &names))
        guard count > 0 else { return [] }
        defer {
            for index in 0..<count { free(names?[index]) }
            free(names)
        }
        return (0..<count).map { index in
            let descriptor = SD_LISTEN_FDS_START + CInt(index)
            let name = names?[index].map { String(cString: $0) } ?? ""
            return WebListener(endpoint: .passed(descriptor: descriptor, name: name),
                               purpose: name == "admin" ? .admin : .page)
        }
    }
}
