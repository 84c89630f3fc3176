#if canImport(Glibc)
import Glibc
#endif

/// Binds a Unix socket where nobody else can reach it, sets its mode and group there, and only then moves it to its
/// path: nobody can connect before the socket is as it should be, whatever the umask.
///
/// The umask is the process's, shared by every thread: narrowing it for the bind once made a log file opened at the
/// same moment on another thread `rw-------`. Here it is not touched. The socket is born in a folder of its own
/// (`.bindXXXXXX` beside the path, made with `mkdtemp` and then `rwx------`), which others
/// cannot pass through; `rename` puts it in place in one step, and the folder is removed.
public enum PrivateSocketBinding {
    /// A step that failed, with the path it failed on and the `errno`.
    public struct Failure: Error, CustomStringConvertible {
        public let step: String
        public let path: String
        public let code: Int32

        public var description: String { "cannot \(step) \(path): \(String(cString: strerror(code)))" }
    }

    /// Binds with `bind` at a private path, hands that path to `setUp` (mode, group), then moves the socket to
    /// `path`. When `setUp` or the move fails, `close` closes what `bind` returned and nothing is left behind.
    public static func bind<Server>(at path: String, _ bind: (String) async throws -> Server,
                                    setUp: (String) throws -> Void,
                                    close: (Server) async -> Void) async throws -> Server {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        // A short name: a socket's path is at most 107 bytes, and the private one is no longer than `folder/.bindXXXXXX/s`.
        var template = Array("\(folder)/.bindXXXXXX".utf8CString)
        // mkdtemp returns a pointer into the template: the name is read inside the same access to the array, never
        // through that pointer afterwards. A release build may free the array right after its last use, and the
        // string made next can take the same block (the arm64 tests under qemu stopped on "initialize overlapping
        // range" here when the name was read after the closure).
        let made: String? = template.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        guard let privateFolder = made else {
            throw Failure(step: "make a private folder for the socket in", path: folder, code: errno)
        }
        let temporary = privateFolder + "/s"
        defer {
            unlink(temporary)
            rmdir(privateFolder)
        }
        // The umask may have taken the owner's own bits too (0177: rw-------, which a user other than root cannot enter).
        guard chmod(privateFolder, 0o700) == 0 else {
            throw Failure(step: "open to its owner the private folder", path: privateFolder, code: errno)
        }
        let server = try await bind(temporary)
        do {
            try setUp(temporary)
            guard rename(temporary, path) == 0 else { throw Failure(step: "move the socket to", path: path, code: errno) }
        } catch {
            await close(server)
            throw error
        }
        return server
    }
}
