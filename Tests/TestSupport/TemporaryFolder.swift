import Foundation

/// A folder of its own for one test, removed afterwards.
public final class TemporaryFolder {
    public let path: String

    public init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("trackd-test-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside the folder.
    public func file(_ name: String) -> String { "\(path)/\(name)" }
}
