/// Where fixes come from and how that connection is doing.
public struct SourceStatus: Sendable, Codable, Hashable {
    /// `gpsd://localhost:2947`, `serial:///dev/ttyACM0?baud=9600`, …
    public var address: String
    /// How the connection is doing.
    public enum State: String, Sendable, Codable, Hashable {
        case connecting, connected, lost
        /// A recording played to its end.
        case ended
    }

    public var state: State
    /// A sentence a person can read: "gpsd localhost:2947, libgps API 11.0", "device unplugged".
    public var detail: String
    /// Seconds since the state last changed.
    public var stateAge: Double?
    /// With `--source auto`: the receiver it took (`serial:///dev/serial0?baud=9600`); nil while it looks.
    public var chosen: String?
    /// With `--source auto`: why it took that one, and what it found elsewhere.
    public var reason: String?

    public init(address: String, state: State, detail: String, stateAge: Double? = nil,
                chosen: String? = nil, reason: String? = nil) {
        self.address = address
        self.state = state
        self.detail = detail
        self.stateAge = stateAge
        self.chosen = chosen
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey {
        case address, state, detail, chosen, reason
        case stateAge = "state_age"
    }
}

/// `source` notification sent to watchers when the source's state changes.
public typealias SourceNotification = SourceStatus
