/// Something that happened, kept in the log beside the trips: alerts, loss of fix, power loss, errors.
public struct LogEvent: Sendable, Hashable, Codable, Identifiable {
    /// What kind of event.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case idleAlert = "idle-alert"
        case fixLost = "fix-lost"
        case fixRegained = "fix-regained"
        case gap
        case powerLost = "power-lost"
        case resumed
        case started
        case stopped
        case error
    }

    public var id: Int64
    public var kind: Kind
    /// GPS time when known.
    public var time: UTCTime?
    public var tripID: TripID?
    /// One line a person can read.
    public var detail: String

    public init(id: Int64, kind: Kind, time: UTCTime?, tripID: TripID?, detail: String) {
        self.id = id
        self.kind = kind
        self.time = time
        self.tripID = tripID
        self.detail = detail
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, time
        case tripID = "trip"
        case detail
    }
}
