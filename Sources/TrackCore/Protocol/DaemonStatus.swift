/// What `status` returns: the daemon's live state at a glance. Ages are seconds on the monotonic clock.
public struct DaemonStatus: Sendable, Codable, Hashable {
    /// `trackd 0.1.0`.
    public var version: String
    public var source: SourceStatus
    /// The last epoch received (with or without a position).
    public var lastFix: Fix?
    /// Seconds since `lastFix` arrived.
    public var lastFixAge: Double?
    /// The last epoch that had a position.
    public var lastPosition: Fix?
    /// Seconds since `lastPosition` arrived.
    public var lastPositionAge: Double?
    /// Fix epochs received since start, and of those with a position.
    public var epochs: Int
    public var positionFixes: Int
    /// Sentences dropped for damage since start.
    public var inputProblems: Int
    /// The running trip, if any.
    public var trip: TripStatus?
    /// Moving or standing.
    public var motion: MotionStatus?
    /// The last idle alert.
    public var lastAlert: IdleAlert?
    /// How the engine judged the fixes since start.
    public var fixes: EngineStatistics?
    /// The odometer now, kilometres: the log's, plus the running trip's distance so far; `nil` until a dashboard
    /// reading has set it.
    public var odometer: Double?
    /// Whether the mileage log can be written; `nil` when this trackd keeps no log.
    public var storage: StorageStatus?

    public init(version: String, source: SourceStatus, lastFix: Fix? = nil, lastFixAge: Double? = nil,
                lastPosition: Fix? = nil, lastPositionAge: Double? = nil, epochs: Int = 0, positionFixes: Int = 0,
                inputProblems: Int = 0, trip: TripStatus? = nil, motion: MotionStatus? = nil,
                lastAlert: IdleAlert? = nil, fixes: EngineStatistics? = nil, odometer: Double? = nil,
                storage: StorageStatus? = nil) {
        self.version = version
        self.source = source
        self.lastFix = lastFix
        self.lastFixAge = lastFixAge
        self.lastPosition = lastPosition
        self.lastPositionAge = lastPositionAge
        self.epochs = epochs
        self.positionFixes = positionFixes
        self.inputProblems = inputProblems
        self.trip = trip
        self.motion = motion
        self.lastAlert = lastAlert
        self.fixes = fixes
        self.odometer = odometer
        self.storage = storage
    }

    enum CodingKeys: String, CodingKey {
        case version, source
        case lastFix = "last_fix"
        case lastFixAge = "last_fix_age"
        case lastPosition = "last_position"
        case lastPositionAge = "last_position_age"
        case epochs
        case positionFixes = "position_fixes"
        case inputProblems = "input_problems"
        case trip, motion, fixes, odometer, storage
        case lastAlert = "last_alert"
    }
}

/// Where fixes come from and how that connection is doing.
public struct SourceStatus: Sendable, Codable, Hashable {
    /// `gpsd://localhost:2947`, `serial:///dev/ttyACM0?baud=9600`, …
    public var address: String
    /// `connecting`, `connected`, `lost` or `ended`.
    public var state: String
    /// A sentence a person can read: "gpsd localhost:2947, libgps API 11.0", "device unplugged".
    public var detail: String
    /// Seconds since the state last changed.
    public var stateAge: Double?

    public init(address: String, state: String, detail: String, stateAge: Double? = nil) {
        self.address = address
        self.state = state
        self.detail = detail
        self.stateAge = stateAge
    }

    enum CodingKeys: String, CodingKey {
        case address, state, detail
        case stateAge = "state_age"
    }
}

/// Whether the mileage log can be written, and what trackd keeps in memory until it can.
public struct StorageStatus: Sendable, Codable, Hashable {
    /// `ok`, or `failing` while writes fail.
    public var state: String
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

    public init(state: String, detail: String, stateAge: Double? = nil, pendingPoints: Int = 0,
                pendingRecords: Int = 0, droppedPoints: Int = 0) {
        self.state = state
        self.detail = detail
        self.stateAge = stateAge
        self.pendingPoints = pendingPoints
        self.pendingRecords = pendingRecords
        self.droppedPoints = droppedPoints
    }

    /// Whether the log is being written normally.
    public var isOK: Bool { state == "ok" }

    enum CodingKeys: String, CodingKey {
        case state, detail
        case stateAge = "state_age"
        case pendingPoints = "pending_points"
        case pendingRecords = "pending_records"
        case droppedPoints = "dropped_points"
    }
}

/// `source` notification sent to watchers when the source's state changes.
public typealias SourceNotification = SourceStatus

/// The running trip, as `status` shows it.
public struct TripStatus: Sendable, Codable, Hashable {
    public var number: Int
    public var kind: TripKind
    public var purpose: String?
    /// GPS time of its first fix, once known.
    public var start: UTCTime?
    /// Distance so far (calibrated), metres.
    public var distance: Double
    public var measuredDistance: Double
    /// Seconds since its first fix, on the monotonic clock.
    public var duration: Double?
    public var idleAlerts: Int
    /// Outages bridged so far.
    public var bridgedGaps: Int

    public init(_ trip: Trip, now: MonotonicInstant) {
        number = trip.number
        kind = trip.kind
        purpose = trip.purpose
        start = trip.start
        distance = trip.distance
        measuredDistance = trip.measuredDistance
        duration = trip.firstFixAt.map { now.seconds(since: $0) }
        idleAlerts = trip.idleAlerts
        bridgedGaps = trip.gaps.filter(\.isBridged).count
    }

    enum CodingKeys: String, CodingKey {
        case number, kind, purpose, start, duration
        case distance = "distance_m"
        case measuredDistance = "measured_distance_m"
        case idleAlerts = "idle_alerts"
        case bridgedGaps = "bridged_gaps"
    }
}

/// Whether the vehicle moves or stands, and since when (GPS time).
public struct MotionStatus: Sendable, Codable, Hashable {
    /// `moving`, `stationary` or `unknown`.
    public var state: String
    public var since: UTCTime?

    public init(state: String, since: UTCTime?) {
        self.state = state
        self.since = since
    }
}
