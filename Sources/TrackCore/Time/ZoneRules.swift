/// The offsets from UTC of one time zone through time, daylight saving time included, read from a TZif file
/// (RFC 8536: the files of `/usr/share/zoneinfo`, versions 1 to 4).
///
/// - Before the first transition: the offset of local time type 0.
/// - From one transition to the next: the offset of the local time type that transition brings.
/// - At and after the last transition, or always when there is none: the footer's POSIX TZ rule (`PosixZoneRule`)
///   when the file has a non-empty one, else the last transition's offset (time type 0 without transitions).
/// - Files of version 2 and later are read from their 64-bit data block; the 32-bit block is skipped.
/// - Leap-second records (the `right/` zones) are read past and not applied: instants are POSIX time, as
///   `UTCTime` counts it.
///
/// Pure: the bytes come in as a value (`TrackZoneInfo` reads them from the system's zoneinfo folder).
public struct ZoneRules: Sendable, Hashable {
    /// Transition instants, seconds since the Unix epoch, strictly ascending.
    let transitions: [Int64]
    /// The offset each transition brings, seconds ahead of UTC, one per transition.
    let offsets: [Int]
    /// The offset before the first transition (local time type 0).
    let initialOffset: Int
    /// The footer's rule, for instants at and after the last transition.
    let rule: PosixZoneRule?

    /// Rules from their parts: transitions (strictly ascending) and the offset each brings, the offset before them,
    /// and the rule after the last.
    init(transitions: [Int64], offsets: [Int], initialOffset: Int, rule: PosixZoneRule?) {
        precondition(transitions.count == offsets.count, "one offset per transition")
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.rule = rule
    }

    /// Seconds the zone's local time is ahead of UTC at `seconds` after the Unix epoch (negative west of Greenwich).
    public func offsetSeconds(atUnixSeconds seconds: Int64) -> Int {
        guard let last = transitions.last else { return rule?.offsetSeconds(atUnixSeconds: seconds) ?? initialOffset }
        if seconds >= last, let rule { return rule.offsetSeconds(atUnixSeconds: seconds) }
        // How many transitions are at or before `seconds`.
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffset : offsets[low - 1]
    }
}
