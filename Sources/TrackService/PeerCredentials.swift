#if canImport(Glibc)
import Glibc
#endif

/// Who is on the other end of a control connection, from the socket's `SO_PEERCRED`.
public struct PeerCredentials: Sendable, Hashable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// The user's login name, or `uid N` when the system has no name for it.
    public var userName: String {
        PeerCredentials.loginName(of: uid) ?? "uid \(uid)"
    }

    /// The login name of `uid` in the system's user database, if it has one.
    static func loginName(of uid: uid_t) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        // The entry's strings point into the buffer: they are read while the buffer is held, not after the call
        // (an optimised build may free an array right after its last use).
        return buffer.withUnsafeMutableBufferPointer { storage in
            guard let base = storage.baseAddress, getpwuid_r(uid, &entry, base, storage.count, &result) == 0,
                  result != nil, let name = entry.pw_name else { return nil }
            return String(cString: name)
        }
    }
}
