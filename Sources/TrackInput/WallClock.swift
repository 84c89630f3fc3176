#if canImport(Glibc)
import Glibc
#endif
// libgps's module takes in <time.h>: an optimised build finds `timespec` there (as MonotonicClock does).
import CGPS
import TrackCore

/// The system's wall clock (`CLOCK_REALTIME`): the time of day when no GPS time is known yet. It may be wrong (a
/// board without a real-time clock starts in 1970) and may jump when NTP sets it, so trackd takes GPS time first
/// (`LiveStatus.logTime`) and durations from `MonotonicClock`. The daemon reads it through the one reader it is given.
public enum WallClock {
    /// Now.
    public static func now() -> UTCTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return UTCTime(nanosecondsSinceEpoch: Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }
}
