#if canImport(Glibc)
import Glibc
#endif
import Hummingbird
import Logging
import NIOPosix

/// The page's files as Hummingbird's `FileMiddleware` serves them, but only regular files and folders named as they
/// are, inside the page's folder: a path with a NUL (which would cut the name the system opens short of the one
/// whose extension gives the type), a name beginning with a dot, or a symbolic link anywhere below the folder is
/// not found.
struct PageFiles: FileProvider {
    typealias FileAttributes = LocalFileSystem.FileAttributes
    typealias FileIdentifier = LocalFileSystem.FileIdentifier

    private let files: LocalFileSystem
    /// The page's folder, as given (it may itself be reached through a link: the package's folder is the admin's).
    private let root: String

    init(root: String, logger: Logger) {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        files = LocalFileSystem(rootFolder: root, threadPool: .singleton, logger: logger)
    }

    func getFileIdentifier(_ path: String) -> FileIdentifier? {
        guard Self.isPlainPath(path), let id = files.getFileIdentifier(path),
              Self.hasNoLink(below: root, path: path) else { return nil }
        return id
    }

    func getAttributes(id: FileIdentifier) async throws -> FileAttributes? {
        try await files.getAttributes(id: id)
    }

    func loadFile(id: FileIdentifier, context: some RequestContext) async throws -> ResponseBody {
        try await files.loadFile(id: id, context: context)
    }

    func loadFile(id: FileIdentifier, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        try await files.loadFile(id: id, range: range, context: context)
    }

    /// Whether a request's path (percent-decoded) names a file the page may serve: no NUL or other control
    /// character, no component beginning with a dot (`.git`, `.htpasswd`, `..`), no backslash.
    static func isPlainPath(_ path: String) -> Bool {
        guard !path.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }) else { return false }
        return !path.split(separator: "/").contains { $0.hasPrefix(".") }
    }

    /// Whether no component of `path` below `root` is a symbolic link (what is missing is left to the file lookup).
    static func hasNoLink(below root: String, path: String) -> Bool {
        var current = root
        for component in path.split(separator: "/") {
            current += "/" + component
            var info = stat()
            guard lstat(current, &info) == 0 else { return true }
            if (info.st_mode & S_IFMT) == S_IFLNK { return false }
        }
        return true
    }
}
