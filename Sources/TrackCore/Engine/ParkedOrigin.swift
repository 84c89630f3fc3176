/// Where the car stood before trackd saw it, for a trip started before its first fix (the trip asked at boot): the
/// previous trip's end, as the log kept it. The engine bridges from there to the first trusted position of the trip,
/// like an outage (`TrackEngine`'s "before the first fix"), when that position comes soon enough after the board was
/// powered — the metres the car drove while the board booted.
public struct ParkedOrigin: Sendable, Hashable, Codable {
    /// Where the car stood.
    public var coordinate: Coordinate
    /// That position's error estimate (95 %), metres.
    public var error: Double?
    /// GPS time the car was last seen there (the previous trip's end).
    public var time: UTCTime
    /// When the board was powered, on the monotonic clock (the kernel's start); `nil` when trackd did not start at
    /// boot (a restart): then nothing is bridged.
    public var poweredAt: MonotonicInstant?

    public init(coordinate: Coordinate, error: Double?, time: UTCTime, poweredAt: MonotonicInstant?) {
        self.coordinate = coordinate
        self.error = error
        self.time = time
        self.poweredAt = poweredAt
    }

    /// GPS time from which the car may have moved unseen, given a fix of GPS time `time` that arrived `now`: the
    /// board's power-on (as far before the fix as the monotonic clock says). `nil` without a power-on (a restart:
    /// the car may have been driven while trackd was stopped, and the drive is not trackd's to guess), or when the
    /// power-on was not after the car was last seen there (trackd restarted after the previous trip closed).
    func movableSince(fixTime time: UTCTime, arrivedAt now: MonotonicInstant) -> UTCTime? {
        guard let poweredAt else { return nil }
        let poweredOn = time.adding(seconds: -max(0, now.seconds(since: poweredAt)))
        return poweredOn > self.time ? poweredOn : nil
    }
}
