/// The uplink as `status` shows it: connected or not, what was acknowledged last, what is still to send.
public struct UplinkStatus: Sendable, Codable, Hashable {
    /// Where it stands.
    public enum State: String, Sendable, Codable, Hashable {
        case connecting
        case connected
        /// Waiting before the next attempt, after a failure or a lost connection.
        case waiting
        /// The broker refused the connection (a bad password, a client id not allowed): tried again, slowly.
        case refused
    }

    public var state: State
    /// The broker, and a sentence a person can act on when it is not connected.
    public var broker: String
    public var detail: String?
    /// Seconds since the state last changed, on the monotonic clock.
    public var stateAge: Double?
    /// The last message the broker acknowledged (its id) and its GPS time when it has one.
    public var lastAcknowledged: String?
    public var lastAcknowledgedTime: UTCTime?
    /// Track points in the log not yet acknowledged, and about how many bytes they take on the wire.
    public var backlogPoints: Int
    public var backlogBytes: Int
    /// Messages in flight, and acknowledged since trackd started.
    public var inFlight: Int
    public var acknowledged: Int

    public init(state: State, broker: String, detail: String? = nil, stateAge: Double? = nil,
                lastAcknowledged: String? = nil, lastAcknowledgedTime: UTCTime? = nil, backlogPoints: Int = 0,
                backlogBytes: Int = 0, inFlight: Int = 0, acknowledged: Int = 0) {
        self.state = state
        self.broker = broker
        self.detail = detail
        self.stateAge = stateAge
        self.lastAcknowledged = lastAcknowledged
        self.lastAcknowledgedTime = lastAcknowledgedTime
        self.backlogPoints = backlogPoints
        self.backlogBytes = backlogBytes
        self.inFlight = inFlight
        self.acknowledged = acknowledged
    }

    enum CodingKeys: String, CodingKey {
        case state, broker, detail
        case stateAge = "state_age"
        case lastAcknowledged = "last_acknowledged"
        case lastAcknowledgedTime = "last_acknowledged_time"
        case backlogPoints = "backlog_points"
        case backlogBytes = "backlog_bytes"
        case inFlight = "in_flight"
        case acknowledged
    }
}
