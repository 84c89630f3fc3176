/// How trackd keeps the mileage log: the `log:` section of the configuration file.
public struct LogConfiguration: Sendable, Hashable {
    /// Track points are committed at least this often while a trip runs, seconds; at most this much is lost in a cut.
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
