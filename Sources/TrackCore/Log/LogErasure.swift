/// An erasure: what it took away, when, by whom and why. Its record in the hash chain keeps the digests of what
/// it erased, not the data.
public struct LogErasure: Sendable, Hashable, Codable {
    /// The erasure's record in the chain; `nil` for a dry run.
    public var chainRecord: Int64?
    public var target: ErasureTarget
    /// What was asked, in words.
    public var scope: String
    public var time: UTCTime
    /// `gps` or `system`.
    public var timeSource: String
    public var user: String
    public var reason: String?
    /// The trips whose route (for `routes`) was erased, or the trips the log held (for `all`).
    public var trips: [TripID]
    /// Track points erased.
    public var trackPoints: Int
    /// Earlier chain records whose contents were erased (their digests stay in the chain).
    public var chainRecords: Int
    /// Entries of the change history whose values were erased.
    public var revisions: Int
    /// Files under `exports/` rewritten or removed (not part of the chain record).
    public var exports: [String]
    /// What the erasure leaves for the driver to do or know (not part of the chain record).
    public var notes: [String]
    /// Whether it was carried out (`false` for a dry run).
    public var done: Bool

    public init(chainRecord: Int64? = nil, target: ErasureTarget, scope: String, time: UTCTime, timeSource: String,
                user: String, reason: String?, trips: [TripID] = [], trackPoints: Int = 0, chainRecords: Int = 0,
                revisions: Int = 0, exports: [String] = [], notes: [String] = [], done: Bool) {
        self.chainRecord = chainRecord
        self.target = target
        self.scope = scope
        self.time = time
        self.timeSource = timeSource
        self.user = user
        self.reason = reason
        self.trips = trips
        self.trackPoints = trackPoints
        self.chainRecords = chainRecords
        self.revisions = revisions
        self.exports = exports
        self.notes = notes
        self.done = done
    }

    enum CodingKeys: String, CodingKey {
        case target, scope, time, user, reason, trips, revisions, exports, notes, done
        case chainRecord = "chain_record"
        case timeSource = "time_source"
        case trackPoints = "track_points"
        case chainRecords = "chain_records"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        chainRecord = try c.decodeIfPresent(Int64.self, forKey: .chainRecord)
        target = try c.decode(ErasureTarget.self, forKey: .target)
        scope = try c.decode(String.self, forKey: .scope)
        time = try c.decode(UTCTime.self, forKey: .time)
        timeSource = try c.decode(String.self, forKey: .timeSource)
        user = try c.decode(String.self, forKey: .user)
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
        trips = try c.decodeIfPresent([TripID].self, forKey: .trips) ?? []
        trackPoints = try c.decodeIfPresent(Int.self, forKey: .trackPoints) ?? 0
        chainRecords = try c.decodeIfPresent(Int.self, forKey: .chainRecords) ?? 0
        revisions = try c.decodeIfPresent(Int.self, forKey: .revisions) ?? 0
        exports = try c.decodeIfPresent([String].self, forKey: .exports) ?? []
        notes = try c.decodeIfPresent([String].self, forKey: .notes) ?? []
        done = try c.decodeIfPresent(Bool.self, forKey: .done) ?? true
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(chainRecord, forKey: .chainRecord)
        try c.encode(target, forKey: .target)
        try c.encode(scope, forKey: .scope)
        try c.encode(time, forKey: .time)
        try c.encode(timeSource, forKey: .timeSource)
        try c.encode(user, forKey: .user)
        try c.encode(reason, forKey: .reason)
        try c.encode(trips, forKey: .trips)
        try c.encode(trackPoints, forKey: .trackPoints)
        try c.encode(chainRecords, forKey: .chainRecords)
        try c.encode(revisions, forKey: .revisions)
        try c.encode(exports, forKey: .exports)
        try c.encode(notes, forKey: .notes)
        try c.encode(done, forKey: .done)
    }
}
