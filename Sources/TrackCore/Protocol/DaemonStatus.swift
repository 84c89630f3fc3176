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
    public var trip: TripView?
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
    /// The uplink to an MQTT broker; `nil` when none is configured.
    public var uplink: UplinkStatus?
    /// The uplink to a Traccar server (OsmAnd); `nil` when none is configured.
    public var osmand: UplinkStatus?
    /// Who gets the month's report by e-mail; `nil` when nobody is named.
    public var mail: MailStatus?
    /// The OBD-II adapter and the car behind it; `nil` when none is configured.
    public var obd: OBDStatus?
    /// The last copy of the reports to a USB stick; `nil` when none was ever made.
    public var stick: StickCopy?

    public init(version: String, source: SourceStatus, lastFix: Fix? = nil, lastFixAge: Double? = nil,
                lastPosition: Fix? = nil, lastPositionAge: Double? = nil, epochs: Int = 0, positionFixes: Int = 0,
                inputProblems: Int = 0, trip: TripView? = nil, motion: MotionStatus? = nil,
                lastAlert: IdleAlert? = nil, fixes: EngineStatistics? = nil, odometer: Double? = nil,
                storage: StorageStatus? = nil, uplink: UplinkStatus? = nil, osmand: UplinkStatus? = nil,
                mail: MailStatus? = nil, obd: OBDStatus? = nil, stick: StickCopy? = nil) {
        self.uplink = uplink
        self.stick = stick
        self.obd = obd
        self.mail = mail
        self.osmand = osmand
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
        case trip, motion, fixes, odometer, storage, uplink, osmand, mail, obd, stick
        case lastAlert = "last_alert"
    }
}
