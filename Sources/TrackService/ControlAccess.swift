#if canImport(Glibc)
import Glibc
#endif

/// Who may change the log over the control socket: root, the daemon's own user, and members of the control group.
/// Reads are open to anyone who can connect (the socket's mode, 0660 with the group, decides that).
public struct ControlAccess: Sendable {
    /// The control group's name (`trackd`), and its id when the system has such a group.
    public let groupName: String?
    /// The control group's id, when the system has such a group.
    public let groupID: gid_t?
    private let daemonUID: uid_t

    /// Everyone may change the log (tests, and a daemon without a socket others can reach).
    public static let everyone = ControlAccess(groupName: nil, groupID: nil, daemonUID: 0, open: true)

    private let open: Bool

    private init(groupName: String?, groupID: gid_t?, daemonUID: uid_t, open: Bool) {
        self.groupName = groupName
        self.groupID = groupID
        self.daemonUID = daemonUID
        self.open = open
    }

    /// Changes by root, this process's user and the members of `group` (looked up now; a group the system does not
    /// have admits nobody beyond the first two).
    public init(group: String) {
        var entry = group_t()
        var result: UnsafeMutablePointer<group_t>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        let found = getgrnam_r(group, &entry, &buffer, buffer.count, &result) == 0 && result != nil
        self.init(groupName: group, groupID: found ? entry.gr_gid : nil, daemonUID: geteuid(), open: false)
    }

    /// Whether the group exists on this system.
    public var groupExists: Bool { groupID != nil }

    /// Whether `peer` may change the log; `nil` when it may, else the sentence that says why not.
    public func refusal(for peer: PeerCredentials?) -> String? {
        if open { return nil }
        guard let peer else {
            return "trackd could not tell who is asking (no peer credentials), so it changes nothing"
        }
        if peer.uid == 0 || peer.uid == daemonUID { return nil }
        if let groupID, peer.isMember(of: groupID) { return nil }
        let group = groupName ?? "trackd"
        return "\(peer.userName) may read the log but not change it: changes need root or the '\(group)' group "
            + "(sudo usermod -aG \(group) \(peer.userName), then log in again)"
    }
}

/// Glibc's `struct group`.
private typealias group_t = group

extension PeerCredentials {
    /// Whether the user belongs to the group, as primary or supplementary group.
    func isMember(of group: gid_t) -> Bool {
        if gid == group { return true }
        guard let name = PeerCredentials.loginName(of: uid) else { return false }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, gid, &groups, &count) == -1 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, gid, &groups, &count) != -1 else { return false }
        }
        return groups.prefix(Int(count)).contains(group)
    }
}
