/// How trackd keeps the mileage log: the `log:` section of the configuration file.
public struct LogConfiguration: Sendable, Hashable {
    /// While the vehicle moves, track points are committed this often, seconds; once it stands, within a second.
    /// The default of 1 s bounds what any power cut loses to about a second of track (docs/storage.md weighs it
    /// against the card's wear).
    public var commitInterval: Double = 1
    /// A trip cut by a power loss is resumed when trackd is back within this many seconds; otherwise it is closed.
    public var resumeWithin: Double = 300
    /// Whether the month's CSV and GPX are refreshed in `exports/` of the state directory after each trip.
    public var exports: Bool = true
    /// How long a write waits for another program's lock on the log (`sqlite3`, a card reader's tool), seconds; then
    /// what it wrote waits in memory and is tried again at the next commit interval. The default of 2 s is less
    /// than the engine may stand still before systemd's watchdog counts it as stuck (half of `WatchdogSec=10s`).
    public var busyTimeout: Double = 2
    /// Whether the running trip's points are committed to a file of their own (`trackd.sqlite-points`) between the
    /// trip's events and go into the log in one transaction, which spares the card most of SQLite's writes
    /// (docs/storage.md, "The point file"). Off while an uplink sends from the log, which must hold each point as
    /// it is committed.
    public var pointFile: Bool = true

    public init(commitInterval: Double = 1, resumeWithin: Double = 300, exports: Bool = true, busyTimeout: Double = 2,
                pointFile: Bool = true) {
        self.pointFile = pointFile
        self.commitInterval = commitInterval
        self.resumeWithin = resumeWithin
        self.exports = exports
        self.busyTimeout = busyTimeout
    }
}
