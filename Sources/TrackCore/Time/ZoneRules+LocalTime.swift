extension ZoneRules {
    /// The instant, seconds since the Unix epoch, of a local wall-clock time given as seconds since 1970-01-01
    /// 00:00 *local*: the one rule by which trackd reads a local time (a trip entered by hand, the start of a day).
    ///
    /// - Where the clocks go back and the time comes twice, the earlier instant.
    /// - Where they jump forward over it (a spring-forward gap, a skipped day), the time as far past the jump as it
    ///   was into the gap, read with the offset before the jump: 00:30 in a gap from 00:00 to 01:00 is 01:30 after
    ///   it. java.time, ICU and Python's zoneinfo place such a time so.
    public func unixSeconds(ofLocalSeconds local: Int64) -> Int64 {
        // The offsets around the local time: those a day either side (offsets stay within a day of UTC), and the
        // offset at the instant the first guess gives.
        let before = offsetSeconds(atUnixSeconds: local - 86_400)
        let after = offsetSeconds(atUnixSeconds: local + 86_400)
        let guess = offsetSeconds(atUnixSeconds: local - Int64(offsetSeconds(atUnixSeconds: local)))
        // An offset is the local time's when the instant it gives has that offset.
        let instants = [before, guess, after].map { local - Int64($0) }
            .filter { instant in offsetSeconds(atUnixSeconds: instant) == Int(local - instant) }
        return instants.min() ?? local - Int64(before)
    }
}
