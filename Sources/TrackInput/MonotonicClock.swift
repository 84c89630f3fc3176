#if canImport(Glibc)
import Glibc
#endif
import CGPS
import TrackCore

/// The system's monotonic clock (`CLOCK_MONOTONIC`): durations that do not jump when NTP sets the wall clock.
public enum MonotonicClock {
    /// Now.
    public static func now() -> MonotonicInstant {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return MonotonicInstant(nanoseconds: UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec))
    }
}
