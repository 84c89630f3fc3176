import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TestSupport
import TrackCore
import TrackInput

/// The events a source delivered, for a test to wait on and inspect.
final class EventCollector: Sendable {
    private let events = Mutex<[SourceEvent]>([])

    init() {}

    /// Adds an event; this is the source's `deliver`.
    func record(_ event: SourceEvent) {
        events.withLock { $0.append(event) }
    }

    /// Everything delivered so far, in order.
    var all: [SourceEvent] { events.withLock { $0 } }

    /// The fixes delivered so far.
    var fixes: [Fix] { all.compactMap { if case .fix(let fix, _) = $0 { fix } else { nil } } }

    /// The state changes delivered so far.
    var states: [SourceState] { all.compactMap { if case .state(let state) = $0 { state } else { nil } } }

    /// The problems delivered so far.
    var problems: [NMEADiagnostic] { all.compactMap { if case .problem(let problem) = $0 { problem } else { nil } } }

    /// The reasons of the `.lost` states delivered so far.
    var lostReasons: [String] { states.compactMap { if case .lost(let reason) = $0 { reason } else { nil } } }

    /// How many `.connected` states were delivered so far.
    var connections: Int { states.count { if case .connected = $0 { true } else { false } } }

    /// Waits until `condition` holds, checking every 20 ms for up to `timeout` seconds; whether it came to hold.
    func wait(upTo timeout: Double = 20, until condition: (EventCollector) -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(Int(TestPatience.seconds(timeout) * 1000)))
        while !condition(self) {
            guard clock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Runs `source`, delivering to this collector, while `body` runs; then stops the source and waits for `run`
    /// to return. An error `run` throws is rethrown.
    func collect(from source: some FixSource, while body: () async throws -> Void) async throws {
        try await running({ try await source.run { event in self.record(event) } }, while: body)
    }
}

/// Runs `source` (a source's `run`, delivering somewhere) while `body` runs; then cancels it and waits for it to
/// return. An error either throws is rethrown.
func running(_ source: @escaping @Sendable () async throws -> Void, while body: () async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await source() }
        do {
            try await body()
        } catch {
            group.cancelAll()
            throw error
        }
        group.cancelAll()
        try await group.waitForAll()
    }
}

/// A test waited too long for something.
struct TimeLimitExceeded: Error, CustomStringConvertible {
    let what: String
    var description: String { "gave up waiting for \(what)" }
}

/// Runs `operation`, cancelling it and throwing `TimeLimitExceeded` if it takes longer than `seconds`.
func withTimeLimit<Result: Sendable>(
    _ seconds: Double, _ what: String, _ operation: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    try await withThrowingTaskGroup(of: Result?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try? await Task.sleep(for: .milliseconds(Int(TestPatience.seconds(seconds) * 1000)))
            return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        guard let first else { throw TimeLimitExceeded(what: what) }
        return first
    }
}

/// A directory under the system's temporary directory, removed with everything in it on deinit.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/trackd-test-XXXXXX").utf8CString)
        // mkdtemp fills in the template and returns a pointer into it: the name is read inside the same access to
        // the array, never through that pointer afterwards. (With `mkdtemp(&template)` the pointer was valid only
        // during the call; a release build may free the array right after its last use, and the string allocated
        // next can take the same block: the arm64 test bundle under qemu crashed once with "initialize overlapping
        // range" there.)
        let created: String? = template.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        guard let created else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        path = created
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Whether an entry (even a dangling link) called `name` exists in the directory.
    func contains(_ name: String) -> Bool {
        var status = stat()
        return lstat(path + "/" + name, &status) == 0
    }
}

/// Writes all of `bytes` to a non-blocking descriptor, waiting for room as needed (up to 20 s).
func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws {
    var offset = 0
    while offset < bytes.count {
        let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            offset += count
        } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
            var room = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            guard poll(&room, 1, 20_000) == 1 else { throw TimeLimitExceeded(what: "room to write") }
        } else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
    }
}

/// Reads exactly `count` bytes from a non-blocking descriptor, waiting up to 20 s for each piece.
func readExactly(_ count: Int, from descriptor: Int32) throws -> [UInt8] {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while received.count < count {
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 20_000) == 1 else { throw TimeLimitExceeded(what: "\(count) bytes") }
        let got = Glibc.read(descriptor, &buffer, min(buffer.count, count - received.count))
        if got > 0 {
            received += buffer[0..<got]
        } else if got == 0 || (errno != EAGAIN && errno != EINTR) {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
    }
    return received
}
