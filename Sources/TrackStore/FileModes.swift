#if canImport(Glibc)
import Glibc
#endif

/// The modes of what trackd keeps on the card, whatever the umask it was started with: the log says where a person
/// drove, so it is for trackd and its group only. Under systemd the unit's `UMask=0027` and `StateDirectoryMode=0750`
/// give the same; started by hand under a umask of 022 the files were world-readable.
///
/// Files trackd creates get exactly these modes. Files and folders that exist are tightened to them, never loosened:
/// a folder an administrator made 0700 stays so.
public enum FileModes {
    /// The state folder and the exports folder: `rwxr-x---`.
    public static let folder: mode_t = 0o750
    /// The log, its `-wal` and `-shm`, the lock file, the exports: `rw-r-----`.
    public static let file: mode_t = 0o640

    /// Creates `path` (and its missing parents, with the umask's modes) as a folder of mode `folder`, or tightens
    /// the folder that is there.
    public static func prepareFolder(_ path: String) throws(FileModeError) {
        var info = stat()
        if stat(path, &info) != 0 {
            let parent = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
            if !parent.isEmpty, stat(parent, &info) != 0 { try prepareParents(parent) }
            guard mkdir(path, folder) == 0 || errno == EEXIST else { throw .cannot("create the folder", path, errno) }
            guard chmod(path, folder) == 0 else { throw .cannot("set the mode of", path, errno) }
            return
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .notAFolder(path) }
        try tighten(path, to: folder)
    }

    /// Creates `path` empty with mode `file` if it does not exist; tightens it to that mode if it does.
    public static func prepareFile(_ path: String) throws(FileModeError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, file)
        if descriptor >= 0 {
            defer { close(descriptor) }
            guard fchmod(descriptor, file) == 0 else { throw .cannot("set the mode of", path, errno) }
            return
        }
        guard errno == EEXIST else { throw .cannot("create", path, errno) }
        try tighten(path, to: file)
    }

    /// Takes from the mode of `path` (if it exists) every permission `mode` does not grant.
    public static func tighten(_ path: String, to mode: mode_t) throws(FileModeError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw .cannot("read the mode of", path, errno)
        }
        let current = info.st_mode & 0o7777
        let tightened = current & mode
        guard tightened != current else { return }
        guard chmod(path, tightened) == 0 else { throw .cannot("set the mode of", path, errno) }
    }

    /// The parents of a folder to create, with the umask's modes (as `mkdir -p` makes them).
    private static func prepareParents(_ path: String) throws(FileModeError) {
        var info = stat()
        guard stat(path, &info) != 0 else { return }
        let parent = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        if !parent.isEmpty { try prepareParents(parent) }
        guard mkdir(path, 0o777) == 0 || errno == EEXIST else { throw .cannot("create the folder", path, errno) }
    }
}
