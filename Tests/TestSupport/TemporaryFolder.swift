import Foundation

/// A folder of its own for one test, removed afterwards.
public final class TemporaryFolder {
    public let path: String

    /// A new folder in `base` (the system's temporary folder by default; `/dev/shm` for one in memory).
    public init(in base: String? = nil) throws {
        let base = base ?? FileManager.default.temporaryDirectory.path
        path = "\(base)/trackd-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside the folder.
    public func file(_ name: String) -> String { "\(path)/\(name)" }
}
