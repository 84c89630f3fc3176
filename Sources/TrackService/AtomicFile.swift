#if canImport(Glibc)
import Glibc
#endif

/// Writes a file so that a reader (or a power cut) sees either the old contents or the new, never a mix: a temporary
/// file beside it, `fsync`, `rename` over the old one, and `fsync` of the folder so that the rename itself is durable.
public enum AtomicFile {
    /// Why a write failed.
    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let step: String
        public let errno: Int32

        public var description: String {
            "cannot write \(path): \(step) failed: \(String(cString: strerror(errno)))"
        }
    }

    /// Replaces `path` with `bytes`; the file gets `mode`.
    public static func write(_ bytes: some Collection<UInt8>, to path: String, mode: mode_t = 0o644) throws(Failure) {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw Failure(path: path, step: "creating \(temporary)", errno: errno) }
        var failure: Failure?
        let buffer = Array(bytes)
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                failure = Failure(path: path, step: "writing", errno: errno)
                break
            }
            offset += written
        }
        if failure == nil, fsync(descriptor) != 0 { failure = Failure(path: path, step: "fsync", errno: errno) }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = Failure(path: path, step: "rename", errno: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let directory = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }
}
