/// A reading of a monotonic clock (nanoseconds since an arbitrary start, usually boot): for durations only.
///
/// TrackCore never reads a clock; sources stamp each fix with one of these when it arrives, and replay
/// derives them from GPS time.
public struct MonotonicInstant: Sendable, Hashable, Comparable, Codable {
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    /// Seconds from `earlier` to this instant (negative if `earlier` is later).
    public func seconds(since earlier: MonotonicInstant) -> Double {
        nanoseconds >= earlier.nanoseconds
            ? Double(nanoseconds - earlier.nanoseconds) / 1e9
            : -Double(earlier.nanoseconds - nanoseconds) / 1e9
    }

    /// This instant moved `seconds` later (never before zero).
    public func adding(seconds: Double) -> MonotonicInstant {
        let delta = Int64((seconds * 1e9).rounded())
        return MonotonicInstant(nanoseconds: delta >= 0 ? nanoseconds &+ UInt64(delta)
                                                           : nanoseconds - min(nanoseconds, UInt64(-delta)))
    }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}
