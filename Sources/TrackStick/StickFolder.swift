#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// A car's folder on a mounted stick (`trackd/AB-123`): brings its files up to date, each written to a temporary
/// name, synced and renamed, so that a stick pulled out at any instant holds complete files or none under their
/// names; the next insertion finishes the job.
public struct StickFolder: Sendable {
    /// What a copy did.
    public struct Outcome: Sendable, Equatable {
        public var written: [String] = []
        public var unchanged: [String] = []
        public var removed: [String] = []
        public var bytes = 0
    }

    /// The folder's path.
    public let path: String
    /// Fault injection for the interruption tests (docs/reliability.md): after this many bytes written, the process
    /// kills itself (SIGKILL) in the middle of a write, as a stick pulled out or a power cut would stop it.
    public var killAfterBytes: Int?

    private var old = StickManifest()
    private var new = StickManifest()
    private var outcome = Outcome()

    public init(path: String, killAfterBytes: Int? = nil) {
        self.path = path
        self.killAfterBytes = killAfterBytes
    }

    /// The prefix and suffix of a file being written: `.2026-11.html.partial`.
    static let temporaryPrefix = "."
    static let temporarySuffix = ".partial"

    /// Whether `name` is one trackd-stick may write or remove: a plain name in the folder, no temporary one.
    static func isOwnName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && name.count <= 100
    }

    /// Starts a copy: makes the folders and reads what was written before.
    public mutating func open() throws(StickError) {
        try makeFolders()
        old = StickManifest(parsing: (try? readText("\(path)/\(StickManifest.fileName)")) ?? "")
        new = StickManifest()
        outcome = Outcome()
    }

    /// Brings one file up to date: written when it is new or changed (or its copy on the stick is not the size
    /// written), else left.
    public mutating func put(_ file: StickFile) throws(StickError) {
        let target = "\(path)/\(file.name)"
        if let entry = old.entries[file.name], entry.fingerprint == file.fingerprint, size(of: target) == entry.size {
            new.entries[file.name] = entry
            outcome.unchanged.append(file.name)
            return
        }
        let bytes = try file.contents()
        outcome.bytes += try write(bytes, to: file.name, after: outcome.bytes)
        new.entries[file.name] = StickManifest.Entry(fingerprint: file.fingerprint, size: bytes.count)
        outcome.written.append(file.name)
    }

    /// Ends a copy: removes what trackd-stick wrote before that was not put this time and what an interrupted copy
    /// left, then writes the manifest (when it changed) and syncs the folder. Files of anyone else's are left alone.
    public mutating func finish() throws(StickError) -> Outcome {
        for name in old.entries.keys.sorted() where new.entries[name] == nil {
            if unlink("\(path)/\(name)") == 0 || errno == ENOENT {
                outcome.removed.append(name)
            } else {
                throw StickError.writing("\(path)/\(name)", step: "removing", errno: Errno(rawValue: errno))
            }
        }
        removeLeftovers()
        if new != old {
            outcome.bytes += try write(Array(new.text.utf8), to: StickManifest.fileName, after: outcome.bytes)
        }
        try syncFolder()
        return outcome
    }

    /// Makes the folder hold `files` and nothing else of trackd-stick's (`open`, `put` each, `finish`).
    public mutating func update(to files: [StickFile]) throws(StickError) -> Outcome {
        try open()
        for file in files { try put(file) }
        return try finish()
    }

    /// `trackd` and the car's folder in it.
    private func makeFolders() throws(StickError) {
        var built = ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            built += "/\(component)"
            if mkdir(built, 0o755) != 0 && errno != EEXIST {
                throw StickError.writing(built, step: "making the folder", errno: Errno(rawValue: errno))
            }
        }
    }

    /// Writes `bytes` to `.NAME.partial`, syncs it and renames it to `NAME`, `before` bytes into the copy (for
    /// `killAfterBytes`); the bytes written.
    private func write(_ bytes: [UInt8], to name: String, after before: Int) throws(StickError) -> Int {
        let temporary = "\(path)/\(Self.temporaryPrefix)\(name)\(Self.temporarySuffix)"
        let target = "\(path)/\(name)"
        let file = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw StickError.writing(target, step: "creating", errno: Errno(rawValue: errno)) }
        var offset = 0
        while offset < bytes.count {
            var chunk = min(64 * 1024, bytes.count - offset)
            var killing = false
            if let limit = killAfterBytes, before + offset + chunk >= limit {
                chunk = max(0, limit - before - offset)
                killing = true
            }
            let count = chunk == 0 ? 0 : bytes.withUnsafeBytes { buffer in
                Glibc.write(file, buffer.baseAddress! + offset, chunk)
            }
            if killing { kill(getpid(), SIGKILL) }
            guard count >= 0 else {
                let error = Errno(rawValue: errno)
                close(file)
                unlink(temporary)
                throw StickError.writing(target, step: "writing", errno: error)
            }
            offset += count
        }
        guard fsync(file) == 0 else {
            let error = Errno(rawValue: errno)
            close(file)
            unlink(temporary)
            throw StickError.writing(target, step: "syncing", errno: error)
        }
        guard close(file) == 0 else { throw StickError.writing(target, step: "closing", errno: Errno(rawValue: errno)) }
        guard rename(temporary, target) == 0 else {
            let error = Errno(rawValue: errno)
            unlink(temporary)
            throw StickError.writing(target, step: "renaming", errno: error)
        }
        return bytes.count
    }

    /// The temporary files of a copy that was interrupted.
    private func removeLeftovers() {
        guard let directory = opendir(path) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(Self.temporaryPrefix), name.hasSuffix(Self.temporarySuffix), name.count > 9 {
                unlink("\(path)/\(name)")
            }
        }
    }

    /// The folder's entries made durable (the renames).
    private func syncFolder() throws(StickError) {
        let folder = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw StickError.writing(path, step: "opening the folder", errno: Errno(rawValue: errno)) }
        defer { close(folder) }
        // FAT and exFAT (and FUSE ones) may refuse fsync on a folder (EINVAL); their renames are synced with the files.
        if fsync(folder) != 0, errno != EINVAL {
            throw StickError.writing(path, step: "syncing the folder", errno: Errno(rawValue: errno))
        }
    }

    private func size(of path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
    }

    private func readText(_ path: String) throws -> String {
        let file = try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec)
        return try file.closeAfter {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = try buffer.withUnsafeMutableBytes { try file.read(into: $0) }
                if count == 0 || bytes.count > 4 * 1024 * 1024 { break }
                bytes += buffer[..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
