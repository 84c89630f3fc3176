#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// A diagnostic for the suite under load (docs/reliability.md): with `TRACKD_TEST_POOL_WATCH=FILE`, a thread of its
/// own asks the tests' concurrency pool for a turn every second and writes to FILE each time the turn came more
/// than two seconds late (when, which test process, and how late; appended), so that a run's stalls can be laid beside its log of tests. Without
/// the variable it does nothing.
public enum PoolWatch {
    /// Starts the watch once per process (later calls do nothing).
    public static func start() {
        _ = started
    }

    private static let started: Bool = {
        guard let path = ProcessInfo.processInfo.environment["TRACKD_TEST_POOL_WATCH"], !path.isEmpty else { return false }
        // Appended to: a run of scripts/test is two test processes, each with its watch.
        let process = ProcessInfo.processInfo.processIdentifier
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let thread = Thread {
            while true {
                let asked = ContinuousClock.now
                let turn = Mutex<ContinuousClock.Instant?>(nil)
                Task.detached { turn.withLock { $0 = ContinuousClock.now } }
                // Wait for the turn without taking one of the pool's threads.
                var late: Duration = .zero
                while true {
                    usleep(50_000)
                    if let came = turn.withLock({ $0 }) {
                        late = came - asked
                        break
                    }
                }
                if late > .seconds(2), let handle = FileHandle(forWritingAtPath: path) {
                    handle.seekToEndOfFile()
                    handle.write(Data("\(Date()) process \(process): the pool's turn came \(late) late\n".utf8))
                    try? handle.close()
                }
                sleep(1)
            }
        }
        thread.start()
        return true
    }()
}
