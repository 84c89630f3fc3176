#if canImport(Glibc)
import Glibc
#endif
import TrackStore

/// The one trackd that may run on a state folder: an exclusive lock on `trackd.lock` in it, held for the life of
/// the process and released by the kernel when the process ends, however it ends (a power cut, SIGKILL).
///
/// Two daemons on one log close each other's trips and write points into trips the other closed; the control
/// socket's check does not catch it, since each may have a socket of its own (`sudo trackd` by hand uses
/// `/var/lib/trackd/control.sock`, the service `/run/trackd/control.sock`). The lock is taken before the log is
/// opened. It is a `flock` lock, which belongs to the open file, not to the process (closing another descriptor of the
/// file does not drop it, as it would a POSIX record lock), and a program the daemon starts never holds it (the
/// descriptor is close-on-exec). The file holds the
/// holder's process id, so that the one refused can name it.
public final class StateFolderLock: Sendable {
    /// The lock file's path.
    public let path: String
    private let descriptor: Int32

    /// The lock file in a state folder.
    public static func path(in stateDirectory: String) -> String {
        "\(stateDirectory)/trackd.lock"
    }

    /// Takes the lock on `stateDirectory` (which must exist) for this process, or says who holds it.
    public init(stateDirectory: String) throws(StateFolderLockError) {
        let path = Self.path(in: stateDirectory)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o640)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, errno: errno) }
        _ = fchmod(descriptor, FileModes.file)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let error = errno
            let holder = Self.holder(descriptor)
            close(descriptor)
            if error == EWOULDBLOCK {
                throw .held(stateDirectory: stateDirectory, pid: holder)
            }
            throw .cannotLock(path: path, errno: error)
        }
        // Ours now: the file says who holds it.
        let text = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) != 0 || pwrite(descriptor, text, text.count, 0) != text.count {
            let error = errno
            close(descriptor)
            throw .cannotOpen(path: path, errno: error)
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The process id the holder wrote into the file; `nil` when it cannot be read.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        return Int32(text.split(whereSeparator: { $0 == "\n" || $0 == " " }).first ?? "")
    }
}
