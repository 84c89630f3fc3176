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
    /// Whether its old and new values were erased (they named a person); the rest stays.
    public var valuesErased: Bool

    public init(id: Int64, tripID: TripID?, subject: String, field: String, oldValue: String?, newValue: String?,
                time: UTCTime, timeSource: String, user: String, reason: String?, valuesErased: Bool = false) {
        self.valuesErased = valuesErased
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
        case valuesErased = "values_erased"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int64.self, forKey: .id)
        tripID = try c.decodeIfPresent(TripID.self, forKey: .tripID)
        subject = try c.decode(String.self, forKey: .subject)
        field = try c.decode(String.self, forKey: .field)
        oldValue = try c.decodeIfPresent(String.self, forKey: .oldValue)
        newValue = try c.decodeIfPresent(String.self, forKey: .newValue)
        time = try c.decode(UTCTime.self, forKey: .time)
        timeSource = try c.decode(String.self, forKey: .timeSource)
        user = try c.decode(String.self, forKey: .user)
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
        valuesErased = try c.decodeIfPresent(Bool.self, forKey: .valuesErased) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encodeIfPresent(tripID, forKey: .tripID)
        try c.encode(subject, forKey: .subject)
        try c.encode(field, forKey: .field)
        try c.encodeIfPresent(oldValue, forKey: .oldValue)
        try c.encodeIfPresent(newValue, forKey: .newValue)
        try c.encode(time, forKey: .time)
        try c.encode(timeSource, forKey: .timeSource)
        try c.encode(user, forKey: .user)
        try c.encodeIfPresent(reason, forKey: .reason)
        if valuesErased { try c.encode(true, forKey: .valuesErased) }
    }
}
