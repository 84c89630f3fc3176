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

    /// When the system started (the kernel's start; the firmware's few seconds before it are not counted), on this
    /// clock, if that was at most `within` seconds ago (`CLOCK_BOOTTIME`: the time since boot); `nil` after longer
    /// (trackd restarted on a running system).
    public static func bootInstant(within: Double) -> MonotonicInstant? {
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        let sinceBoot = Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
        guard sinceBoot <= within else { return nil }
        return now().adding(seconds: -sinceBoot)
    }
}
