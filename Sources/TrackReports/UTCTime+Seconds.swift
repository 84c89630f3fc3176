import TrackCore

extension UTCTime {
    /// This instant moved by whole seconds.
    func shifted(seconds: Int) -> UTCTime {
        UTCTime(nanosecondsSinceEpoch: nanosecondsSinceEpoch + Int64(seconds) * UTCTime.nanosecondsPerSecond)
    }
}
