#if canImport(Glibc)
import Glibc
#endif

/// A moment on CLOCK_MONOTONIC, the clock trackd stamps arrivals with and Python's `time.monotonic()` reads: for a
/// test to start two programs' playback at the same moment.
public struct MonotonicTime: Sendable, Hashable, Comparable {
    /// Seconds since the clock's origin (the boot).
    public var seconds: Double

    public init(seconds: Double) {
        self.seconds = seconds
    }

    /// Now.
    public static var now: MonotonicTime {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicTime(seconds: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
    }

    /// `seconds` later.
    public func adding(seconds: Double) -> MonotonicTime {
        MonotonicTime(seconds: self.seconds + seconds)
    }

    /// Sleeps until this moment (at once if it has passed).
    public func sleepUntil() async throws {
        let wait = seconds - Self.now.seconds
        if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
    }

    public static func < (lhs: MonotonicTime, rhs: MonotonicTime) -> Bool { lhs.seconds < rhs.seconds }
}
