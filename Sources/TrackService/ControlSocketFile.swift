#if canImport(Glibc)
import Glibc
#endif

/// The control socket's file: who may connect is decided by its mode and group, so they are set, and checked,
/// before the daemon says it is ready.
///
/// The socket is set up where nobody else can reach it (`PrivateSocketBinding`) and only then put at its path:
/// nobody else can connect in the moment before its group and mode are set, whatever umask trackd was started with
/// (0 by hand outside systemd). It is handed to the control group and given `rw-rw----`. A mode that cannot be set
/// is fatal: a socket anyone might reach is not served. A group that cannot be set (trackd neither root nor a member
/// of it) is not: root and trackd's own user can still use the socket, and the warning says what to do.
enum ControlSocketFile {
    /// The socket's mode once it is set up: the owner and the control group may connect.
    static let mode: mode_t = 0o660

    /// Sets the group (`gid`, the control group's, when it exists) and the mode of the socket at `path`, and checks
    /// both; returns a warning to log when the group could not be set.
    static func secure(_ path: String, group gid: gid_t?, groupName: String?) throws(ControlServerError) -> [String] {
        var warnings: [String] = []
        var handed = false
        if let gid {
            // Born in the group already (trackd's own group is the control group, as under systemd): nothing to
            // change, and no chown, which the unit's system call filter refuses (@chown is in @privileged).
            var born = stat()
            if lstat(path, &born) == 0 && born.st_gid == gid {
                handed = true
            } else if chown(path, uid_t.max, gid) == 0 {
                handed = true
            } else {
                let name = groupName ?? "\(gid)"
                warnings.append("cannot give the control socket to the group '\(name)' "
                    + "(\(String(cString: strerror(errno)))): only root and trackd's own user can use it; make trackd's "
                    + "user a member of '\(name)' (usermod -aG \(name) USER) and restart trackd")
            }
        }
        guard chmod(path, mode) == 0 else { throw .cannotSecure(path, "set its mode to 0660", errno) }
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .cannotSecure(path, "read its mode back", errno) }
        guard info.st_mode & 0o7777 == mode else {
            throw .insecure(path, "its mode is \(String(info.st_mode & 0o7777, radix: 8)), not 660")
        }
        if handed, let gid, info.st_gid != gid {
            throw .insecure(path, "its group is \(info.st_gid), not \(gid)")
        }
        return warnings
    }

    /// Whether the group may pass through the socket's folder; the warning when it may not.
    static func closedFolder(of path: String, to gid: gid_t, groupName: String) -> String? {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        var info = stat()
        guard stat(folder, &info) == 0 else { return nil }
        let open = info.st_mode & 0o001 != 0 || (info.st_gid == gid && info.st_mode & 0o010 != 0)
        guard !open else { return nil }
        return "members of the group '\(groupName)' cannot reach the control socket: its folder \(folder) is closed to "
            + "them (mode \(String(info.st_mode & 0o7777, radix: 8)), group \(info.st_gid)); open the folder to the "
            + "group (under systemd a drop-in with RuntimeDirectoryMode=0755), or put the socket elsewhere (daemon.socket)"
    }
}
