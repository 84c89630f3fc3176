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

    public init(commitInterval: Double = 1, resumeWithin: Double = 300, exports: Bool = true) {
        self.commitInterval = commitInterval
        self.resumeWithin = resumeWithin
        self.exports = exports
    }
}
