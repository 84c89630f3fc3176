/// Whether the vehicle moves or stands, and since when (GPS time).
public struct MotionStatus: Sendable, Codable, Hashable {
    /// What the engine makes of the fixes.
    public enum State: String, Sendable, Codable, Hashable {
        case moving, stationary
        /// No usable fix yet (or none since the last outage decided nothing).
        case unknown
    }

    public var state: State
    public var since: UTCTime?

    public init(state: State, since: UTCTime?) {
        self.state = state
        self.since = since
    }
}
