#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TrackCore

/// A stop request from a task to the blocking thread it started, with a descriptor that `poll` can wait on so
/// that a thread blocked in `poll` wakes at once.
public final class StopSignal: Sendable {
    private let stopped = Atomic<Bool>(false)
    /// The read end of a pipe that becomes readable when `stop` is called.
    public let descriptor: Int32
    private let writeEnd: Int32

    public init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Whether a stop was requested.
    public var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Requests the stop and wakes any `poll` on `descriptor`.
    public func stop() {
        stopped.store(true, ordering: .releasing)
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)
    }

    /// Waits up to `seconds`; returns `false` if a stop was requested meanwhile.
    @discardableResult
    public func sleep(seconds: Double) -> Bool {
        var remaining = seconds
        while remaining > 0 && !isStopped {
            let start = MonotonicClock.now()
            var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(min(remaining * 1000, 1_000_000).rounded(.up)))
            remaining -= MonotonicClock.now().seconds(since: start)
        }
        return !isStopped
    }
}
