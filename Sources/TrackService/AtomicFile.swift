#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Writes a file so that a reader (or a power cut) sees either the old contents or the new, never a mix: a temporary
/// file beside it, `fsync`, `rename` over the old one, `fsync` of the file again and of the folder so that the rename
/// itself is durable.
///
/// The second `fsync` of the file is for FAT (the card's boot partition): there a file's directory entry is part of
/// the file's inode, and a rename over an existing name moves the inode into the old name's entry without writing it;
/// the folder's `fsync` does not write it either. A power cut after the rename then left the old entry pointing at
/// the old contents' clusters, which the rename had already freed: an empty or broken file on the card (the image
/// boot test, 2026-12-04: `trackd-setup.txt` pointing at a free cluster, found by mtools and fsck.vfat).
public enum AtomicFile {
    /// Why a write failed.
    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let step: String
        public let errno: Errno

        public var description: String {
            "cannot write \(path): \(step) failed: \(errno)"
        }
    }

    /// Replaces `path` with `bytes`; the file gets exactly `mode`, whatever the umask.
    public static func write(_ bytes: some Sequence<UInt8>, to path: String, mode: mode_t = 0o644) throws(Failure) {
        let temporary = path + ".tmp-\(getpid())"
        var step = "creating \(temporary)"
        do {
            let file = try FileDescriptor.open(FilePath(temporary), .writeOnly, options: [.create, .truncate, .closeOnExec],
                                               permissions: FilePermissions(rawValue: mode))
            try file.closeAfter {
                step = "setting the mode of \(temporary)"
                guard fchmod(file.rawValue, mode) == 0 else { throw Errno(rawValue: errno) }
                step = "writing"
                _ = try file.writeAll(bytes)
                step = "fsync"
                guard fsync(file.rawValue) == 0 else { throw Errno(rawValue: errno) }
                step = "rename"
                guard rename(temporary, path) == 0 else { throw Errno(rawValue: errno) }
                // The file under its new name (FAT writes its directory entry with the file, not with the folder).
                step = "fsync after the rename"
                guard fsync(file.rawValue) == 0 else { throw Errno(rawValue: errno) }
            }
        } catch {
            unlink(temporary)
            throw Failure(path: path, step: step, errno: error as? Errno ?? .ioError)
        }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        if let directory = try? FileDescriptor.open(FilePath(folder.isEmpty ? "/" : folder), .readOnly,
                                                    options: [.directory, .closeOnExec]) {
            fsync(directory.rawValue)
            try? directory.close()
        }
    }
}
