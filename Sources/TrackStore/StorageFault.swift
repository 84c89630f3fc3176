#if canImport(Glibc)
import Glibc
#endif
import SystemPackage
import TrackSQLite

/// Why the log's file cannot be written just now, as a person must fix it: the filesystem is full, read-only, or
/// trackd's file-size limit is reached, the card fails, or another program holds the log's lock. Whatever trackd
/// could not write it keeps in memory and writes once this is fixed (docs/reliability.md, "Disk full and
/// read-only").
public enum StorageFault: Sendable, Hashable, CustomStringConvertible {
    /// The filesystem holding the log has no space left (ENOSPC, EDQUOT, SQLite's "database or disk is full").
    case diskFull
    /// The filesystem is mounted read-only (EROFS): ext4 does that itself after an error with `errors=remount-ro`.
    case readOnlyFileSystem
    /// trackd's file-size limit (RLIMIT_FSIZE, systemd's `LimitFSIZE=`) is reached (EFBIG), bytes.
    case fileSizeLimit(bytes: UInt64)
    /// Another input/output error from the card: the system's message.
    case ioError(String)
    /// Another program holds the log's write lock (`sqlite3`, a card reader's tool) longer than trackd waits for it
    /// (SQLite's `SQLITE_BUSY`, `SQLITE_LOCKED`).
    case locked

    public var description: String {
        switch self {
        case .diskFull: "disk full"
        case .readOnlyFileSystem: "read-only file system"
        case .fileSizeLimit(let bytes): "file size limit of \(bytes) bytes reached"
        case .ioError(let message): "input/output error (\(message))"
        case .locked: "locked by another program"
        }
    }

    /// What to do about it.
    public var remedy: String {
        switch self {
        case .diskFull: "free space on that filesystem"
        case .readOnlyFileSystem: "the filesystem went read-only, usually after an error: check it (fsck) and restart"
        case .fileSizeLimit: "raise trackd's file-size limit (LimitFSIZE= in trackd.service, ulimit -f)"
        case .ioError: "check the card (dmesg)"
        case .locked: "close the program that is writing to the log (sqlite3, a card reader's tool); trackd keeps "
            + "what waits and writes it once the log is free"
        }
    }

    /// The fault behind a failed write, from SQLite's primary result code (`SQLITE_FULL`, `SQLITE_IOERR`,
    /// `SQLITE_READONLY`; `SQLITE_BUSY` and `SQLITE_LOCKED` are `locked`), the system's `errno` SQLite saw (0 when it
    /// did not say) and the state of the filesystem
    /// holding `path`; `nil` when the failure is not the storage's (another result code). `openForWriting` opens
    /// the log's WAL (`path`-wal) for writing and answers the errno (0 when it could): ext4's emergency read-only mode (after an error,
    /// `errors=remount-ro`) is not in `statvfs`, and SQLite reports its failed writes as `SQLITE_IOERR` without an errno,
    /// but an open for writing gets EROFS.
    static func diagnose(resultCode: Int32, systemErrno: Int32, message: String, path: String,
                         openForWriting: (String) -> Int32 = StorageFault.openForWriting) -> StorageFault? {
        if [ResultCode.SQLITE_BUSY, .SQLITE_LOCKED].map(\.rawValue).contains(resultCode) { return .locked }
        let full = ResultCode.SQLITE_FULL.rawValue, readOnly = ResultCode.SQLITE_READONLY.rawValue
        guard [full, ResultCode.SQLITE_IOERR.rawValue, readOnly].contains(resultCode) else { return nil }
        switch systemErrno {
        case ENOSPC, EDQUOT: return .diskFull
        case EROFS: return .readOnlyFileSystem
        case EFBIG: return .fileSizeLimit(bytes: fileSizeLimit() ?? 0)
        default: break
        }
        // SQLite reports a write cut short without an errno (SQLITE_FULL): the filesystem tells which it was.
        let folder = FilePath(path).removingLastComponent().string
        var info = statvfs()
        if statvfs(folder.isEmpty ? "." : folder, &info) == 0, info.f_flag & UInt(ST_RDONLY) != 0 {
            return .readOnlyFileSystem
        }
        // The probe opens the WAL, never the log itself: closing any descriptor of a file drops every POSIX lock the
        // process holds on it, so a probe of the log released SQLite's locks on it; the next reader to close then
        // thought itself the last connection, checkpointed and deleted the WAL under trackd, whose later commits went
        // into the unlinked file, unseen by any reader (DiskFullTests). No lock is held on the WAL.
        if access(path + "-wal", F_OK) == 0, openForWriting(path + "-wal") == EROFS {
            return .readOnlyFileSystem
        }
        if let limit = fileSizeLimit(), largestFile(of: path) + 65_536 >= limit {
            return .fileSizeLimit(bytes: limit)
        }
        if resultCode == full { return .diskFull }
        if resultCode == readOnly { return .readOnlyFileSystem }
        return .ioError(systemErrno != 0 ? String(cString: strerror(systemErrno)) : message)
    }

    /// Opens `path` for writing without creating or changing it, and closes it: the errno, 0 when it could.
    static func openForWriting(_ path: String) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return errno }
        close(descriptor)
        return 0
    }

    /// The soft RLIMIT_FSIZE, bytes; `nil` when there is none.
    private static func fileSizeLimit() -> UInt64? {
        var limit = rlimit()
        guard getrlimit(RLIMIT_FSIZE_RESOURCE, &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return UInt64(limit.rlim_cur)
    }

    /// The size of the log's largest file (the database and its `-wal`), bytes.
    private static func largestFile(of path: String) -> UInt64 {
        [path, path + "-wal"].map { file in
            var info = stat()
            return stat(file, &info) == 0 ? UInt64(info.st_size) : 0
        }.max() ?? 0
    }

    #if canImport(Glibc)
    private static let RLIMIT_FSIZE_RESOURCE = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
    #endif
}
