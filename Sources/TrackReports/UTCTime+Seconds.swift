import TrackCore

extension UTCTime {
    /// This instant moved by whole seconds.
    func shifted(seconds: Int) -> UTCTime {
        UTCTime(nanosecondsSinceEpoch: nanosecondsSinceEpoch + Int64(seconds) * UTCTime.nanosecondsPerSecond)
    }

    /// Whole seconds since the Unix epoch, rounded down (also before 1970).
    var wholeSecondsSinceEpoch: Int64 {
        let quotient = nanosecondsSinceEpoch / UTCTime.nanosecondsPerSecond
        return nanosecondsSinceEpoch % UTCTime.nanosecondsPerSecond < 0 ? quotient - 1 : quotient
    }
}
