import Synchronization
import TrackCore
import TrackInput

/// The daemon's live state as readers see it: a small snapshot behind a mutex, written by `TrackerService`, and
/// in its own field by the uplink.
public final class LiveStatus: Sendable {
    private struct State {
        var source: SourceStatus
        var sourceSince: MonotonicInstant
        var lastFix: Fix?
        var lastFixAt: MonotonicInstant?
        var lastTimedFix: UTCTime?
        var lastTimedFixAt: MonotonicInstant?
        var lastPosition: Fix?
        var lastPositionAt: MonotonicInstant?
        var epochs = 0
        var positionFixes = 0
        var inputProblems = 0
        var trip: Trip?
        var motion = MotionStatus(state: .unknown, since: nil)
        var lastAlert: IdleAlert?
        var fixes = EngineStatistics()
        /// The log's odometer, metres: at the start of the running trip, or now when none runs.
        var odometer: (metres: Double, atTripStart: Bool)?
        /// Whether the log can be written, with its age as of when it was recorded.
        var storage: (status: StorageStatus, at: MonotonicInstant)?
        /// The uplink, with its age as of when it was recorded.
        var uplink: (status: UplinkStatus, at: MonotonicInstant)?
        var osmand: (status: UplinkStatus, at: MonotonicInstant)?
        /// Who gets the month's report by e-mail (set at start).
        var mail: MailStatus?
        /// The OBD-II adapter and its car, and when the car was last read.
        var obd: OBDStatus?
        var obdReadingAt: MonotonicInstant?
        /// The last copy of the reports to a USB stick.
        var stick: StickCopy?
    }

    private let state: Mutex<State>
    /// The wall clock, for "now" before the first GPS time: the daemon's one reader of it.
    public let wallClock: @Sendable () -> UTCTime

    public init(address: String, now: MonotonicInstant, wallClock: @escaping @Sendable () -> UTCTime = WallClock.now) {
        state = Mutex(State(source: SourceStatus(address: address, state: .connecting, detail: "starting"),
                            sourceSince: now))
        self.wallClock = wallClock
    }

    /// The state at `now`, with ages computed from it.
    public func snapshot(now: MonotonicInstant) -> DaemonStatus {
        state.withLock { state in
            var source = state.source
            source.stateAge = now.seconds(since: state.sourceSince)
            return DaemonStatus(
                version: "trackd \(TrackVersion.string)", source: source,
                lastFix: state.lastFix, lastFixAge: state.lastFixAt.map { now.seconds(since: $0) },
                lastPosition: state.lastPosition, lastPositionAge: state.lastPositionAt.map { now.seconds(since: $0) },
                epochs: state.epochs, positionFixes: state.positionFixes, inputProblems: state.inputProblems,
                trip: state.trip.map { TripView($0, now: now) }, motion: state.motion,
                lastAlert: state.lastAlert, fixes: state.fixes,
                odometer: state.odometer.map { odometer in
                    (odometer.metres + (odometer.atTripStart ? state.trip?.distance ?? 0 : 0)) / 1000
                },
                storage: state.storage.map { storage in
                    var status = storage.status
                    status.stateAge = (status.stateAge ?? 0) + max(0, now.seconds(since: storage.at))
                    return status
                },
                uplink: state.uplink.map { Self.aged($0, now: now) },
                osmand: state.osmand.map { Self.aged($0, now: now) }, mail: state.mail,
                obd: state.obd.map { obd in
                    var status = obd
                    status.readingAge = state.obdReadingAt.map { now.seconds(since: $0) }
                    return status
                },
                stick: state.stick)
        }
    }

    /// The log's odometer (metres): at the start of the running trip, or now when no trip runs.
    func record(odometer metres: Double?, atTripStart: Bool) {
        state.withLock { $0.odometer = metres.map { ($0, atTripStart) } }
    }

    /// Whether the log can be written, as the recorder says at `instant`.
    /// The MQTT uplink's state (written by its service alone).
    public func record(uplink: UplinkStatus, at instant: MonotonicInstant) {
        state.withLock { $0.uplink = (uplink, instant) }
    }

    /// Who gets the month's report by e-mail, from the configuration at start.
    public func record(mail: MailStatus?) {
        state.withLock { $0.mail = mail }
    }

    /// The last copy of the reports to a USB stick (read from the log at start, then as each is recorded).
    public func record(stick: StickCopy?) {
        state.withLock { $0.stick = stick }
    }

    /// The OBD-II adapter and its car as the tracker last heard them; `nil`: none configured.
    func record(obd: OBDStatus?) {
        state.withLock {
            $0.obd = obd
            if obd == nil { $0.obdReadingAt = nil }
        }
    }

    /// The car was read at `instant`.
    func recordOBDReading(at instant: MonotonicInstant) {
        state.withLock { $0.obdReadingAt = instant }
    }

    /// The OsmAnd uplink's state (written by its service alone).
    public func record(osmand: UplinkStatus, at instant: MonotonicInstant) {
        state.withLock { $0.osmand = (osmand, instant) }
    }

    /// An uplink's status with its state's age as of `now`.
    private static func aged(_ recorded: (status: UplinkStatus, at: MonotonicInstant), now: MonotonicInstant) -> UplinkStatus {
        var status = recorded.status
        status.stateAge = (status.stateAge ?? 0) + max(0, now.seconds(since: recorded.at))
        return status
    }

    func record(storage: StorageStatus, at instant: MonotonicInstant) {
        state.withLock { $0.storage = (storage, instant) }
    }

    /// What the engine knows now: the running trip, motion, the last alert, the fix counts.
    func record(engine: TrackEngine) {
        let motion: MotionStatus
        if engine.isMoving {
            motion = MotionStatus(state: .moving, since: nil)
        } else if let since = engine.stationarySince {
            motion = MotionStatus(state: .stationary, since: since)
        } else {
            motion = MotionStatus(state: .unknown, since: nil)
        }
        state.withLock { state in
            state.trip = engine.trip
            state.motion = motion
            state.lastAlert = engine.lastIdleAlert
            state.fixes = engine.statistics
        }
    }

    /// GPS time now: the last fix's time plus the monotonic time since it arrived; `nil` before a timed fix.
    public func gpsTime(now: MonotonicInstant) -> UTCTime? {
        lastGPSTime().map { $0.time.adding(seconds: max(0, now.seconds(since: $0.at))) }
    }

    /// "Now" for the log: GPS time when the daemon has had a fix (the board may have no real-time clock), else the
    /// system clock; and which of the two it is (`gps` or `system`).
    func logTime(now: MonotonicInstant) -> (time: UTCTime, source: String) {
        if let time = gpsTime(now: now) { return (time, "gps") }
        return (wallClock(), "system")
    }

    /// The GPS time of the last fix with a position, and when it arrived.
    func lastGPSTime() -> (time: UTCTime, at: MonotonicInstant)? {
        state.withLock { state in
            guard let time = state.lastTimedFix, let at = state.lastTimedFixAt else { return nil }
            return (time, at)
        }
    }

    func record(_ fix: Fix, at instant: MonotonicInstant) {
        state.withLock { state in
            state.lastFix = fix
            state.lastFixAt = instant
            if let time = fix.time, fix.mode.hasPosition {
                state.lastTimedFix = time
                state.lastTimedFixAt = instant
            }
            state.epochs += 1
            if fix.hasPosition {
                state.lastPosition = fix
                state.lastPositionAt = instant
                state.positionFixes += 1
            }
        }
    }

    /// The source's new state; what `auto` chose stays. Returns the source's status with it.
    @discardableResult
    func record(source: SourceStatus, at instant: MonotonicInstant) -> SourceStatus {
        state.withLock { state in
            let (chosen, reason) = (state.source.chosen, state.source.reason)
            state.source = source
            state.source.chosen = source.chosen ?? chosen
            state.source.reason = source.reason ?? reason
            state.sourceSince = instant
            return state.source
        }
    }

    /// The receiver `auto` took, and why; returns the source's status with it.
    func record(chosen: String, reason: String) -> SourceStatus {
        state.withLock { state in
            state.source.chosen = chosen
            state.source.reason = reason
            return state.source
        }
    }

    func recordProblem() {
        state.withLock { $0.inputProblems += 1 }
    }
}
