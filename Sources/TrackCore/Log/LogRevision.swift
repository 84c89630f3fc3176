/// One change to the mileage log: which field of what, the old and the new value, when, by whom and why.
public struct LogRevision: Sendable, Hashable, Codable, Identifiable {
    public var id: Int64
    /// The trip changed; `nil` for changes to the profile, the odometer or the regular trips.
    public var tripID: TripID?
    /// What was changed: `trip`, `profile`, `odometer`, `regular`.
    public var subject: String
    /// The field: `kind`, `purpose`, `state`, `driver`, `reading`…
    public var field: String
    public var oldValue: String?
    public var newValue: String?
    /// When the change was made: GPS time when the daemon had it, else the system clock (see `timeSource`).
    public var time: UTCTime
    /// `gps` or `system`.
    public var timeSource: String
    /// The Unix user who made the change.
    public var user: String
    public var reason: String?

    public init(id: Int64, tripID: TripID?, subject: String, field: String, oldValue: String?, newValue: String?,
                time: UTCTime, timeSource: String, user: String, reason: String?) {
        self.id = id
        self.tripID = tripID
        self.subject = subject
        self.field = field
        self.oldValue = oldValue
        self.newValue = newValue
        self.time = time
        self.timeSource = timeSource
        self.user = user
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey {
        case id
        case tripID = "trip"
        case subject, field
        case oldValue = "old"
        case newValue = "new"
        case time
        case timeSource = "time_source"
        case user, reason
    }
}
