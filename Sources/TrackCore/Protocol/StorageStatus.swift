/// Whether the mileage log can be written, and what trackd keeps in memory until it can.
public struct StorageStatus: Sendable, Codable, Hashable {
    /// Whether writes go through.
    public enum State: String, Sendable, Codable, Hashable {
        case ok
        /// Writes fail; what failed waits in memory and is tried again.
        case failing
    }

    public var state: State
    /// A sentence a person can act on: the log's path when ok; "disk full: cannot write /var/lib/trackd/trackd.sqlite"
    /// while failing.
    public var detail: String
    /// Seconds since the state last changed, on the monotonic clock.
    public var stateAge: Double?
    /// Track points waiting in memory to be committed (a normal batch while ok; all kept since the failure else).
    public var pendingPoints: Int
    /// Other records (outages, events, a trip's close) waiting in memory to be written.
    public var pendingRecords: Int
    /// Track points given up since the failure began because memory holds only so many (the oldest go first).
    public var droppedPoints: Int

    public init(state: State, detail: String, stateAge: Double? = nil, pendingPoints: Int = 0,
                pendingRecords: Int = 0, droppedPoints: Int = 0) {
        self.state = state
        self.detail = detail
        self.stateAge = stateAge
        self.pendingPoints = pendingPoints
        self.pendingRecords = pendingRecords
        self.droppedPoints = droppedPoints
    }

    /// Whether the log is being written normally.
    public var isOK: Bool { state == .ok }

    enum CodingKeys: String, CodingKey {
        case state, detail
        case stateAge = "state_age"
        case pendingPoints = "pending_points"
        case pendingRecords = "pending_records"
        case droppedPoints = "dropped_points"
    }
}
