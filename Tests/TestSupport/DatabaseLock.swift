import Foundation

/// Another program holding an SQLite file's write lock, as `sqlite3` or a card reader's tool on the board can: a
/// real `python3` process that takes `BEGIN IMMEDIATE` (or `EXCLUSIVE`) and keeps it until `release()`.
public final class DatabaseLock: @unchecked Sendable {
    private let process: TestSubprocess
    private let releaseFile: String

    /// Starts the holder; `folder` takes its release marker and its output. Call `waitUntilHeld()` before relying on it.
    public init(_ database: String, in folder: TemporaryFolder, exclusive: Bool = false) throws {
        releaseFile = folder.file("release-\(UUID().uuidString.prefix(8))")
        process = try TestSubprocess(
            executable: "/usr/bin/python3",
            arguments: ["-c", """
                import os, sqlite3, time
                c = sqlite3.connect('\(database)', isolation_level=None)
                c.execute('BEGIN \(exclusive ? "EXCLUSIVE" : "IMMEDIATE")'); print('locked', flush=True)
                while not os.path.exists('\(releaseFile)'): time.sleep(0.02)
                c.execute('ROLLBACK')
                """],
            outputPath: folder.file("lock-\(UUID().uuidString.prefix(8)).log"))
    }

    deinit {
        process.stop()
    }

    /// Waits up to `seconds` until the lock is held.
    public func waitUntilHeld(upTo seconds: Double = 30) async -> Bool {
        await poll(upTo: seconds) { self.process.output.contains("locked") }
    }

    /// Lets go of the lock and waits for the holder to end.
    public func release() async {
        _ = FileManager.default.createFile(atPath: releaseFile, contents: nil)
        _ = await poll(upTo: 30) { !self.process.isRunning }
    }

    /// What the holder printed.
    public var output: String { process.output }
}
