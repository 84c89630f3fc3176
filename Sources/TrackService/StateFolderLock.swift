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
/// descriptor is close-on-exec). The one refused names the holder's process id from the kernel's table of locks
/// (`/proc/locks`); nothing is written to the file, which costs the card its block, a bitmap and an inode at every start
/// (docs/storage.md). A trackd before 2026-11-27 wrote its process id into the file: read when the table says nothing.
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
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The process id of the holder of the lock on the file open as `descriptor`: from the kernel's table of locks,
    /// else what an older trackd wrote into the file; `nil` when neither says.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var info = stat()
        if fstat(descriptor, &info) == 0, let pid = holder(device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
                                                           in: ProcFile.read("/proc/locks") ?? "") {
            return pid
        }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        return Int32(text.split(whereSeparator: { $0 == "\n" || $0 == " " }).first ?? "")
    }

    /// The process id that holds a `flock` lock on the file `inode` of `device`, in the text of `/proc/locks`
    /// ("1: FLOCK  ADVISORY  WRITE 4242 b3:02:131081 0 EOF"; a waiter's line has "->" after its number).
    static func holder(device: UInt64, inode: UInt64, in table: String) -> Int32? {
        let (major, minor) = ProcFile.majorMinor(device)
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", let pid = Int32(fields[4]) else { continue }
            let file = fields[5].split(separator: ":")
            guard file.count == 3, UInt64(file[0], radix: 16) == major, UInt64(file[1], radix: 16) == minor,
                  UInt64(file[2]) == inode else { continue }
            return pid
        }
        return nil
    }
}
