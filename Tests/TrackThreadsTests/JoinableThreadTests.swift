#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
import TrackThreads

/// What the tests' threads report back.
private final class Report: Sendable {
    let go = Atomic(false)
    let done = Atomic(false)
    let name = Mutex<String?>(nil)
}

struct JoinableThreadTests {
    @Test func joinReturnsOnlyOnceTheBodyHasReturned() throws {
        let report = Report()
        let thread = try JoinableThread(name: "join-test") {
            while !report.go.load(ordering: .acquiring) { sched_yield() }
            // Some work after the go, so that a join that did not wait would return before it ends.
            var sum = 0
            for value in 0..<5_000_000 { sum &+= value & 7 }
            report.done.store(sum > 0, ordering: .releasing)
        }
        report.go.store(true, ordering: .releasing)
        thread.join()
        let done = report.done.load(ordering: .acquiring)
        #expect(done)
    }

    @Test(arguments: [
        ("mqtt", "mqtt"),
        ("trackd-alert-command", "trackd-alert-co"),  // Linux keeps 15 bytes
        ("ääääääää", "äääääää"),                      // 16 bytes: cut before the last whole character
    ])
    func isNamedWithTheFirstFifteenBytesThatLinuxKeeps(name: String, shown: String) throws {
        let report = Report()
        let thread = try JoinableThread(name: name) { report.name.withLock { $0 = Self.ownName() } }
        thread.join()
        let seen = report.name.withLock { $0 }
        #expect(seen == shown)
    }

    /// The calling thread's name as ps shows it.
    private static func ownName() -> String? {
        let fd = open("/proc/thread-self/comm", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].filter { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }
}
