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
        do {
            try write(to: path, mode: mode) { output in try output.write(bytes) }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(path: path, step: "writing", errno: error as? Errno ?? .ioError)
        }
    }

    /// Replaces `path` with what `produce` writes to its output, in pieces (contents too large to hold at once: a
    /// trip's GPX of any length); the file gets exactly `mode`. An error `produce` throws leaves the old file as it
    /// was and is thrown as it is; a failure of the file's own steps is a `Failure`.
    public static func write(to path: String, mode: mode_t = 0o644, _ produce: (inout Output) throws -> Void) throws {
        let temporary = path + ".tmp-\(getpid())"
        var step = "creating \(temporary)"
        do {
            let file = try FileDescriptor.open(FilePath(temporary), .writeOnly, options: [.create, .truncate, .closeOnExec],
                                               permissions: FilePermissions(rawValue: mode))
            try file.closeAfter {
                step = "setting the mode of \(temporary)"
                guard fchmod(file.rawValue, mode) == 0 else { throw Errno(rawValue: errno) }
                step = "writing"
                var output = Output(file: file)
                try produce(&output)
                try output.flush()
                step = "fsync"
                guard fsync(file.rawValue) == 0 else { throw Errno(rawValue: errno) }
                step = "rename"
                guard rename(temporary, path) == 0 else { throw Errno(rawValue: errno) }
                // The file under its new name (FAT writes its directory entry with the file, not with the folder).
                step = "fsync after the rename"
                guard fsync(file.rawValue) == 0 else { throw Errno(rawValue: errno) }
            }
        } catch let error as Errno {
            unlink(temporary)
            throw Failure(path: path, step: step, errno: error)
        } catch {
            unlink(temporary)
            throw error
        }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        if let directory = try? FileDescriptor.open(FilePath(folder.isEmpty ? "/" : folder), .readOnly,
                                                    options: [.directory, .closeOnExec]) {
            fsync(directory.rawValue)
            try? directory.close()
        }
    }

    /// The temporary file being written: bytes gather in a buffer that goes to the file each time it fills.
    public struct Output {
        /// Bytes held before they go to the file.
        static let bufferSize = 64 * 1024
        fileprivate let file: FileDescriptor
        private var buffer: [UInt8] = []

        fileprivate init(file: FileDescriptor) {
            self.file = file
            buffer.reserveCapacity(Self.bufferSize)
        }

        /// Appends `bytes` (an `Errno` when the file cannot take them).
        public mutating func write(_ bytes: some Sequence<UInt8>) throws {
            buffer.append(contentsOf: bytes)
            if buffer.count >= Self.bufferSize { try flush() }
        }

        /// Appends `text` as UTF-8.
        public mutating func write(_ text: String) throws {
            try write(text.utf8)
        }

        fileprivate mutating func flush() throws {
            guard !buffer.isEmpty else { return }
            _ = try file.writeAll(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }
}
