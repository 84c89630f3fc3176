import TrackCore

/// Rate-limits warnings about dropped input (damaged sentences, an adapter's unusable answers): the first one at
/// once, then at most one summary a minute.
struct ProblemLog {
    private var windowStart: MonotonicInstant?
    private var suppressed = 0

    mutating func note(_ diagnostic: some CustomStringConvertible, at now: MonotonicInstant) -> String? {
        guard let start = windowStart, now.seconds(since: start) < 60 else {
            let extra = suppressed
            windowStart = now
            suppressed = 0
            return extra > 0 ? "\(diagnostic) (and \(extra) more in the last minute)" : "\(diagnostic)"
        }
        suppressed += 1
        return nil
    }
}
