import CFileSystem
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage
import TrackCore

/// The file that keeps an uplink's `UplinkMark` across a restart of the daemon, in the runtime folder (tmpfs: it
/// costs the card nothing and is gone after a power cut, when the log's own watermark takes over). One per log
/// file and transport; every acknowledgement rewrites its one record in place.
final class UplinkMarkFile {
    /// Why there is no mark file (the uplink then resumes from the log's watermark alone).
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    let path: String
    private let file: FileDescriptor
    private var written: UplinkMark?

    /// Opens (or creates) the mark of `transport` for the log at `database` in `folder`, which must be on tmpfs or
    /// ramfs: anything else would be a write to the card at every acknowledgement.
    init(folder: String, database: String, transport: String) throws(Unavailable) {
        switch trackd_is_in_memory(folder) {
        case 1: break
        case 0: throw Unavailable(description: "\(folder) is not in memory (tmpfs)")
        default: throw Unavailable(description: "\(folder): \(Errno(rawValue: errno))")
        }
        var identity = stat()
        guard stat(database, &identity) == 0 else {
            throw Unavailable(description: "\(database): \(Errno(rawValue: errno))")
        }
        path = "\(folder)/uplink-\(transport)-\(identity.st_dev)-\(identity.st_ino).mark"
        do {
            file = try FileDescriptor.open(FilePath(path), .readWrite, options: [.create, .closeOnExec],
                                           permissions: [.ownerReadWrite])
        } catch {
            throw Unavailable(description: "\(path): \(error)")
        }
    }

    deinit {
        try? file.close()
    }

    /// The mark the file holds; `nil` when it holds none (new, torn, damaged).
    func read() -> UplinkMark? {
        var bytes = [UInt8](repeating: 0, count: UplinkMark.size)
        guard let count = try? bytes.withUnsafeMutableBytes({ try file.read(fromAbsoluteOffset: 0, into: $0) }),
              count == UplinkMark.size else { return nil }
        return UplinkMark(decoding: bytes)
    }

    /// Replaces the record with `mark` (one write of a fixed size, in place); `false` when the write failed.
    @discardableResult
    func write(_ mark: UplinkMark) -> Bool {
        guard mark != written else { return true }
        let bytes = mark.encoded()
        guard let count = try? bytes.withUnsafeBytes({ try file.write(toAbsoluteOffset: 0, $0) }),
              count == bytes.count else { return false }
        written = mark
        return true
    }
}
