#if canImport(Glibc)
import Glibc
#endif

/// Why trackd cannot take its state folder.
public enum StateFolderLockError: Error, CustomStringConvertible, Equatable {
    /// Another trackd runs on the folder.
    case held(stateDirectory: String, pid: Int32?)
    /// The lock file cannot be opened or written.
    case cannotOpen(path: String, errno: Int32)
    /// The lock cannot be taken for another reason than another holder.
    case cannotLock(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .held(let folder, let pid):
            "another trackd\(pid.map { " (pid \($0))" } ?? "") is running on the state folder \(folder); two daemons "
                + "on one log would close each other's trips: stop that one first (systemctl stop trackd, or kill "
                + "\(pid.map { "\($0)" } ?? "it")), or give this one a state folder of its own (--state-dir)"
        case .cannotOpen(let path, let error):
            "cannot open the lock file \(path): \(String(cString: strerror(error)))"
        case .cannotLock(let path, let error):
            "cannot lock \(path): \(String(cString: strerror(error)))"
        }
    }
}
