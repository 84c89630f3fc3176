import Foundation
import Logging
import TrackCore
import TrackStore

/// The tracker's link to the mileage log: it keeps the log's row of the running trip, batches its track points
/// (committed every `commitInterval` while the vehicle moves, and at once when it stops), notes outages and alerts, closes the row when the trip ends, recovers a trip
/// a power cut left open, and refreshes the month's plain-file exports after each trip.
///
/// When the log cannot be written (disk full, read-only, a file-size limit) nothing is lost at once: the failed
/// writes wait in memory, in order, and are tried again at each commit interval until they go through
/// (`Backlog`); `storage` says how that stands.
///
/// Owned by `TrackerService` alone; every method runs on its task.
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
    }

    let log: MileageLog
    let settings: Settings
    let exports: MonthlyExports?
    let logger: Logger

    /// The log's id of the running trip.
    private(set) var tripID: Int64?
    /// A trip found open at start, waiting for the first usable fix to be resumed or closed, and until when.
    private(set) var recovering: (trip: OpenTrip, deadline: MonotonicInstant)?
    /// The log's odometer at the start of the running trip, metres.
    private(set) var runningOdometerStart: Double?
    /// The last trip closed (for the answer to `stop`).
    private(set) var lastClosed: LogTrip?
    /// Why the last trip's close is not in the log yet (the log cannot be written); `nil` once it is.
    private(set) var closeDeferred: StoreError?
    private var segment = 0
    private var filter: TrackPointFilter
    /// Track points batched since the last commit.
    private var pending: [RecordedPoint] = []
    /// The outage and `resumed` event of a trip carried on after a power cut, until they are committed.
    private var resumption: Resumption?
    /// Writes that failed because the log cannot be written, in order, waiting to be tried again.
    private var backlog = Backlog()
    private var lastFlush: MonotonicInstant?
    /// Since when the log cannot be written, and why; `nil` while it can.
    private var failure: (since: MonotonicInstant, error: StoreError)?
    /// Since when the storage is in its present state.
    private var stateSince: MonotonicInstant
    private let clock: @Sendable () -> MonotonicInstant

    init(log: MileageLog, settings: Settings, exports: MonthlyExports?, logger: Logger,
         clock: @escaping @Sendable () -> MonotonicInstant) {
        self.log = log
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
        StorageStatus(state: failure == nil ? "ok" : "failing",
                      detail: failure.map { Self.detail($0.error, path: log.path) } ?? log.path,
                      stateAge: now.seconds(since: stateSince), pendingPoints: pending.count + backlog.points,
                      pendingRecords: backlog.records, droppedPoints: backlog.dropped)
    }

    /// "disk full: cannot write /var/lib/trackd/trackd.sqlite", or the error as it is.
    static func detail(_ error: StoreError, path: String) -> String {
        error.storageFault.map { "\($0): cannot write \(path)" } ?? "\(error)"
    }

    // MARK: - Power cuts

    /// Looks for a trip left open; if there is one, the decision waits for the first usable fix (or the deadline).
    mutating func lookForOpenTrip(now: MonotonicInstant) async {
        do {
            guard let open = try await log.openTrip() else { return }
            recovering = (open, now.adding(seconds: settings.recovery.resumeWithin))
            logger.notice("a trip was left open, probably by a power cut; the first usable fix decides whether it carries on",
                          metadata: ["trip": "\(open.trip.id)", "points": "\(open.points)",
                                                     "last_point": "\(open.last?.point.time.description ?? "none")"])
        } catch {
            logger.error("cannot read the log at start", metadata: ["error": "\(error)"])
        }
    }

    /// Decides about the open trip at a usable fix: the trip to resume in the engine, or `nil` after closing it.
    mutating func decide(at fix: Fix, time: UTCTime, coordinate: Coordinate, now: MonotonicInstant) async -> Trip? {
        guard let (open, _) = recovering else { return nil }
        recovering = nil
        switch settings.recovery.decide(lastPoint: open.last?.point, time: time, coordinate: coordinate, error: fix.eph) {
        case .close(let reason):
            await closeAfterPowerLoss(open, reason: reason)
            return nil
        case .resume(let gap):
            let last = open.last!
            tripID = open.trip.id
            runningOdometerStart = open.trip.odometerStart
            segment = last.segment + 1
            filter.reset()
            // Recorded with the first points after the cut (see `flush`): until then the file still says the trip
            // was cut at its last stored point, and another cut decides afresh from there.
            resumption = Resumption(gap: gap, time: time,
                                    detail: "carried on after \(Int(gap.duration.rounded())) s without power; "
                                        + "\(Int(gap.distance.rounded())) m bridged")
            var trip = Trip(number: Int(open.trip.id), kind: open.trip.kind, purpose: open.trip.purpose,
                            calibrationFactor: open.trip.calibrationFactor ?? 1, startedAt: now)
            trip.start = open.first?.point.time ?? open.trip.start
            trip.startPosition = open.first?.point.coordinate ?? open.trip.startPosition
            trip.end = last.point.time
            trip.endPosition = last.point.coordinate
            trip.measuredDistance = last.point.distance + gap.distance
            trip.idleAlerts = open.trip.idleAlerts
            logger.notice("trip carries on after a power cut", metadata: [
                "trip": "\(open.trip.id)", "off_s": "\(Int(gap.duration.rounded()))", "bridged_m": "\(Int(gap.distance.rounded()))",
            ])
            return trip
        }
    }

    /// Closes a trip still waiting for a decision (no usable fix came in time, or trackd stops).
    mutating func giveUpRecovery(reason: String) async {
        guard let (open, _) = recovering else { return }
        recovering = nil
        await closeAfterPowerLoss(open, reason: reason)
    }

    /// Whether the wait for a decision is over.
    func recoveryExpired(now: MonotonicInstant) -> Bool {
        guard let (_, deadline) = recovering else { return false }
        return now >= deadline
    }

    private mutating func closeAfterPowerLoss(_ open: OpenTrip, reason: String) async {
        let summary = TripSummary(start: open.first?.point.time, end: open.last?.point.time,
                                  startPosition: open.first?.point.coordinate, endPosition: open.last?.point.coordinate,
                                  measuredDistance: open.last?.point.distance ?? 0, purpose: nil, endReason: "power-lost")
        backlog.append(.close(tripID: open.trip.id, summary, resumption: nil, afterPowerLoss: reason,
                              exportsAt: open.last?.point.time))
        backlog.append(.event(.powerLost, time: open.last?.point.time, tripID: open.trip.id,
                              detail: "closed at its last stored point: \(reason)"))
        await drain()
    }

    // MARK: - Recording

    /// A trip was opened in the log (by `beginTrip`) and started in the engine.
    mutating func began(_ trip: LogTrip) {
        tripID = trip.id
        runningOdometerStart = trip.odometerStart
        segment = 0
        filter.reset()
        pending.removeAll()
        resumption = nil
        noteSuccess()
    }

    /// Forgets the last trip closed (before a new stop).
    mutating func forgetLastClosed() {
        lastClosed = nil
    }

    /// Takes what the engine reported; `stopPurpose` and `endReason` describe a closing trip.
    mutating func record(_ event: EngineEvent, moving: Bool, stopPurpose: String?, endReason: String,
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
                                      purpose: stopPurpose, endReason: endReason, closedAt: trip.end ?? now())
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

    /// Commits the batched points if the vehicle stands or the commit interval has passed; while the log cannot be
    /// written, tries what waits again once per commit interval. Ticks come on a fixed
    /// cadence but are handled a little late, by more or less each time: a tick counts as one commit interval after
    /// the last commit when it is within half a tick of it (else, at a one-second interval, one tick in two or so
    /// would fall a hair short and the commits would come every two seconds).
    mutating func tick(now: MonotonicInstant, moving: Bool) async {
        guard !pending.isEmpty || !backlog.isEmpty else { return }
        if moving || failure != nil, let lastFlush,
           now.seconds(since: lastFlush) < settings.commitInterval - settings.tickInterval / 2 { return }
        lastFlush = now
        await flush()
    }

    /// Commits the batched points now, with the resumption of a trip carried on after a power cut when it has not
    /// been committed yet (a resumption waits for points: alone it would not move the trip past the cut), after
    /// whatever waits from earlier failures.
    mutating func flush() async {
        batch()
        await drain()
    }

    /// Writes what waits, as long as the log can be written (before a new trip is opened, for one).
    mutating func catchUp() async {
        await drain()
    }

    /// Moves the batched points (and a resumption waiting for them) to the writes to make.
    private mutating func batch() {
        guard let tripID, !pending.isEmpty else { return }
        backlog.append(.points(pending, tripID: tripID, resumption: resumption))
        pending.removeAll()
        resumption = nil
    }

    /// Commits a pending resumption with the points so far, if there are any, before another event of the trip,
    /// so that the trip's events stay in order.
    private mutating func flushResumption() async {
        if resumption != nil { await flush() }
    }

    /// Makes a write after whatever waits.
    private mutating func write(_ write: Backlog.Write) async {
        backlog.append(write)
        await drain()
    }

    /// Makes the waiting writes in order until one fails; it and those after it stay, to be tried again (a full or
    /// read-only card, another program's lock, a database error that may pass). Only a write the log refuses as
    /// asked, which can never succeed (the trip is not open any more, …), is logged and given up.
    private mutating func drain() async {
        while let next = backlog.first {
            do {
                try await perform(next)
                backlog.removeFirst()
            } catch where error.isRefusal {
                logger.error("cannot \(next.what) in the log", metadata: ["error": "\(error)"])
                backlog.removeFirst()
            } catch {
                noteFailure(error)
                backlog.trim(keepingPoints: settings.pendingLimit - pending.count)
                return
            }
        }
        noteSuccess()
    }

    private mutating func perform(_ write: Backlog.Write) async throws(StoreError) {
        switch write {
        case .points(let points, let tripID, let resumption):
            try await log.appendPoints(points, to: tripID, resuming: resumption)
        case .gap(let gap, let tripID):
            try await log.recordGap(gap, tripID: tripID)
        case .idleAlert(let alert, let tripID):
            try await log.recordIdleAlert(alert, tripID: tripID)
        case .event(let kind, let time, let tripID, let detail):
            try await log.recordEvent(kind, time: time, tripID: tripID, detail: detail)
        case .close(let tripID, let summary, let resumption, let afterPowerLoss, let exportsAt):
            let closed = try await log.closeTrip(tripID, summary, resuming: resumption)
            if let reason = afterPowerLoss {
                logger.notice("trip closed after a power cut", metadata: [
                    "trip": "\(closed.id)", "reason": "\(reason)", "distance_m": "\(Int(closed.distance.rounded()))",
                ])
            } else {
                lastClosed = closed
                closeDeferred = nil
            }
            await refreshExports(for: closed, now: exportsAt)
        }
    }

    /// A write failed because the log cannot be written: said once, when it starts.
    mutating func noteFailure(_ error: StoreError) {
        let now = clock()
        if failure == nil {
            stateSince = now
            logger.error("the mileage log cannot be written; trackd keeps tracking and tries again at each commit interval",
                         metadata: ["detail": "\(Self.detail(error, path: log.path))", "error": "\(error)",
                                    "pending_points": "\(pending.count + backlog.points)",
                                    "message_id": "\(LogMessageID.storageFailing)"])
        }
        failure = (failure?.since ?? now, error)
    }

    /// A write went through: the end of a failure, if there was one.
    private mutating func noteSuccess() {
        guard let (since, _) = failure, backlog.isEmpty else { return }
        let now = clock()
        failure = nil
        stateSince = now
        logger.notice("the mileage log can be written again; what was kept in memory is stored", metadata: [
            "failed_s": "\(Int(now.seconds(since: since).rounded()))", "points": "\(backlog.stored)",
            "records": "\(backlog.storedRecords)", "dropped_points": "\(backlog.dropped)",
            "message_id": "\(LogMessageID.storageRecovered)",
        ])
        backlog.resetCounts()
    }

    /// Notes in the running trip's events that the GPS source failed (once per outage, as the source reports it).
    mutating func sourceLost(_ reason: String, at time: UTCTime?) async {
        guard let tripID else { return }
        await write(.event(.error, time: time, tripID: tripID, detail: "GPS source lost: \(reason)"))
    }

    /// At shutdown: says what could not be stored (memory does not outlive trackd; a trip whose close waits stays
    /// open in the log, and the next start recovers it as after a power cut).
    func reportLoss() {
        guard !backlog.isEmpty || (!pending.isEmpty && failure != nil) else { return }
        logger.error("trackd stops while the mileage log cannot be written: what was kept in memory is lost",
                     metadata: ["points": "\(pending.count + backlog.points)", "records": "\(backlog.records)"])
    }

    private func refreshExports(for trip: LogTrip, now: UTCTime?) async {
        guard let exports, let date = trip.date else { return }
        do {
            let files = try await exports.refresh(month: date, from: log,
                                                  now: now ?? UTCTime(secondsSinceEpoch: Date().timeIntervalSince1970))
            logger.info("exports refreshed", metadata: ["files": "\(files.joined(separator: ", "))"])
        } catch {
            logger.error("cannot refresh the month's exports", metadata: ["error": "\(error)"])
            do {
                try await log.recordEvent(.error, time: now, tripID: trip.id,
                                          detail: "the month's exports were not refreshed: \(error)")
            } catch {
                logger.error("cannot note the failed export in the log", metadata: ["error": "\(error)"])
            }
        }
    }
}
