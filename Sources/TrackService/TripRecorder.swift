import Logging
import TrackCore
import TrackStore

/// The tracker's link to the mileage log: it keeps the log's row of the running trip, batches its track points
/// (committed every `commitInterval` while the vehicle moves, and at once when it stops), notes outages and alerts,
/// and closes the row when the trip ends (this file); recovers a trip a power cut left open (`+PowerCuts`); keeps
/// the writes that fail in order and tries them again (`+Backlog`); refreshes the month's plain-file exports after
/// each trip (`+Exports`); carries out erasures and the policy that erases old routes (`+Erasure`).
///
/// When the log cannot be written (disk full, read-only, a file-size limit) nothing is lost at once: the failed
/// writes wait in memory, in order, and are tried again at each commit interval until they go through
/// (`Backlog`); `storage` says how that stands.
///
/// Owned by `TrackerService` alone; every method runs on its task. Its state is internal so that its extensions
/// can share it; nothing but the tracker holds a recorder.
struct TripRecorder {
    /// How recording behaves.
    struct Settings: Sendable {
        /// While the vehicle moves, track points are committed this often, seconds; once it stands, within the next
        /// tick. At the default of 1 s a power cut loses about a second of track, driving or standing.
        var commitInterval = 1.0
        /// Whether and how a trip cut by a power loss carries on.
        var recovery = PowerCutRecovery()
        /// Metres a standing vehicle must drift before another point is stored.
        var standingSpacing = 25.0
        /// Seconds between the tracker's ticks, at which commits happen.
        var tickInterval = 1.0
        /// Track points kept in memory while the log cannot be written (an hour of driving at one a second is
        /// 3600); beyond it the oldest go. The trip's distance is the engine's and is kept whatever goes.
        var pendingLimit = 14_400
        /// Bytes of the point file past which its points go into the log before the next commit (about an hour of
        /// driving at one point a second): what a start after a power cut reads back, and how far the log's track
        /// of the running trip may lag behind.
        var settleBytes = 262_144
    }

    let log: MileageLog
    let settings: Settings
    let exports: MonthlyExports?
    /// Where the running trip's points are committed between its events, when not straight into the log
    /// (`TrackPointFile`; `nil`: every commit goes into the log).
    let pointFile: TrackPointFile?
    let logger: Logger
    /// What is kept of where the car went, and for how long (reloadable).
    var privacy = PrivacyPolicy()
    /// The configuration's `profile:` section (reloadable) and the file it came from: an erasure of the profile
    /// is refused while it names a person, and an erasure of everything fills the new profile from it.
    var profileDefaults = ProfileChanges()
    var configurationPath: String?

    /// The log's id of the running trip.
    var tripID: TripID?
    /// A trip found open at start, waiting for the first usable fix to be resumed or closed, and until when.
    var recovering: (trip: OpenTrip, deadline: MonotonicInstant)?
    /// The log's odometer at the start of the running trip, metres.
    var runningOdometerStart: Double?
    /// The car's odometer (metres) as last read through the OBD-II adapter, while that reading stands: the tracker
    /// sets it at each reading and drops it when the adapter is lost or changed. The trip's end takes it.
    var carOdometer: Double?
    /// The last trip closed (for the answer to `stop`).
    var lastClosed: LogTrip?
    /// Why the last trip's close is not in the log yet (the log cannot be written); `nil` once it is.
    var closeDeferred: StoreError?
    var segment = 0
    /// The start and end positions the running trip's row holds (as far as this recorder wrote them).
    var storedEnds = TripEnds()
    /// Whether the running trip keeps its route (a private trip in privacy mode does not, and its points never go
    /// into the point file: it would hold their positions).
    var routeKept = true
    /// Whether the log holds a point of the running trip: its first batch goes into the log, not the point file, so
    /// that the trip's row has its start, its date and its month from the start (`trips`, the monthly report).
    var startInLog = false
    var filter: TrackPointFilter
    /// Track points batched since the last commit.
    var pending: [RecordedPoint] = []
    /// The outage and `resumed` event of a trip carried on after a power cut, until they are committed.
    var resumption: Resumption?
    /// Writes that failed because the log cannot be written, in order, waiting to be tried again.
    var backlog = Backlog()
    var lastFlush: MonotonicInstant?
    /// Since when the log cannot be written, and why; `nil` while it can.
    var failure: (since: MonotonicInstant, error: StoreError)?
    /// Since when the storage is in its present state.
    var stateSince: MonotonicInstant
    let clock: @Sendable () -> MonotonicInstant
    /// The time of day when a trip closes without GPS time (the month of its exports).
    let wallClock: @Sendable () -> UTCTime

    init(log: MileageLog, settings: Settings, exports: MonthlyExports?, pointFile: TrackPointFile? = nil,
         logger: Logger, clock: @escaping @Sendable () -> MonotonicInstant,
         wallClock: @escaping @Sendable () -> UTCTime) {
        self.log = log
        self.pointFile = pointFile
        self.wallClock = wallClock
        self.settings = settings
        self.exports = exports
        self.logger = logger
        self.clock = clock
        stateSince = clock()
        filter = TrackPointFilter(standingSpacing: settings.standingSpacing)
    }

    /// Whether the log cannot be written just now (what failed is waiting to be tried again).
    var isFailing: Bool { failure != nil }

    /// The storage as `status` shows it.
    func storage(now: MonotonicInstant) -> StorageStatus {
        StorageStatus(state: failure == nil ? .ok : .failing,
                      detail: failure.map { Self.detail($0.error, path: log.path) } ?? log.path,
                      stateAge: now.seconds(since: stateSince), pendingPoints: pending.count + backlog.points,
                      pendingRecords: backlog.records, droppedPoints: backlog.dropped)
    }

    /// "disk full: cannot write /var/lib/trackd/trackd.sqlite", or the error as it is.
    static func detail(_ error: StoreError, path: String) -> String {
        error.storageFault.map { "\($0): cannot write \(path)" } ?? "\(error)"
    }

    // MARK: - Recording

    /// A trip was opened in the log (by `beginTrip`) and started in the engine.
    mutating func began(_ trip: LogTrip) {
        tripID = trip.id
        runningOdometerStart = trip.odometerStart
        segment = 0
        storedEnds = TripEnds()
        routeKept = trip.route.isKept
        startInLog = false
        filter.reset()
        pending.removeAll()
        resumption = nil
        noteSuccess()
    }

    /// Forgets the last trip closed (before a new stop).
    mutating func forgetLastClosed() {
        lastClosed = nil
    }

    /// Takes what the engine reported; `stopPurpose`, `stopCustomer` and `endReason` describe a closing trip.
    mutating func record(_ event: EngineEvent, moving: Bool, stopPurpose: String?, stopCustomer: String? = nil, endReason: String,
                         now: @autoclosure () -> UTCTime) async {
        guard let tripID else { return }
        switch event {
        case .trackPoint(let point):
            if filter.keep(point, segment: segment, moving: moving) {
                pending.append(RecordedPoint(point: point, segment: segment))
            }
        case .gap(let gap):
            await flush()
            segment += 1
            await write(.gap(gap, tripID: tripID))
        case .idle(let alert):
            await flushResumption()
            await write(.idleAlert(alert, tripID: tripID))
        case .fixLost(let since):
            await flushResumption()
            await write(.event(.fixLost, time: since, tripID: tripID, detail: "no usable fix"))
        case .fixRegained(let time, let after):
            await flushResumption()
            await write(.event(.fixRegained, time: time, tripID: tripID,
                               detail: "usable fixes again after \(Int(after.rounded())) s"))
        case .tripEnded(let trip):
            batch()
            let summary = TripSummary(start: trip.start, end: trip.end, startPosition: trip.startPosition,
                                      endPosition: trip.endPosition, measuredDistance: trip.measuredDistance,
                                      purpose: stopPurpose, customer: stopCustomer, endReason: endReason, closedAt: trip.end ?? now(),
                                      carOdometer: carOdometer)
            backlog.append(.close(tripID: tripID, summary, resumption: resumption, afterPowerLoss: nil,
                                  exportsAt: trip.end))
            resumption = nil
            self.tripID = nil
            await drain()
            if backlog.closes(tripID) { closeDeferred = failure?.error }
        case .stopped:
            await flush()
        case .tripStarted, .tripResumed, .tripAlreadyRunning, .noTripRunning, .startedMoving, .displaced:
            break
        }
    }

    /// Notes in the running trip's events that the GPS source failed (once per outage, as the source reports it).
    mutating func sourceLost(_ reason: String, at time: UTCTime?) async {
        guard let tripID else { return }
        await write(.event(.error, time: time, tripID: tripID, detail: "GPS source lost: \(reason)"))
    }
}
