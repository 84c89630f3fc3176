import TrackCore

/// Rate-limits warnings about dropped input: the first one at once, then at most one summary a minute.
struct ProblemLog {
    private var windowStart: MonotonicInstant?
    private var suppressed = 0

    mutating func note(_ diagnostic: NMEADiagnostic, at now: MonotonicInstant) -> String? {
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
