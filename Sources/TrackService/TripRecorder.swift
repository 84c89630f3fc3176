import Foundation
import Logging
import TrackCore
import TrackStore

/// The tracker's link to the mileage log: it keeps the log's row of the running trip, batches its track points
/// (committed every `commitInterval` while the vehicle moves, and at once when it stops), notes outages and alerts, closes the row when the trip ends, recovers a trip
/// a power cut left open, and refreshes the month's plain-file exports after each trip.
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
    private var segment = 0
    private var filter: TrackPointFilter
    private var pending: [RecordedPoint] = []
    /// The outage and `resumed` event of a trip carried on after a power cut, until they are committed.
    private var resumption: Resumption?
    private var lastFlush: MonotonicInstant?
    private var failing = false

    init(log: MileageLog, settings: Settings, exports: MonthlyExports?, logger: Logger) {
        self.log = log
        self.settings = settings
        self.exports = exports
        self.logger = logger
        filter = TrackPointFilter(standingSpacing: settings.standingSpacing)
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
        do {
            let closed = try await log.closeTrip(open.trip.id, summary)
            try await log.recordEvent(.powerLost, time: open.last?.point.time, tripID: open.trip.id,
                                      detail: "closed at its last stored point: \(reason)")
            logger.notice("trip closed after a power cut", metadata: [
                "trip": "\(closed.id)", "reason": "\(reason)", "distance_m": "\(Int(closed.distance.rounded()))",
            ])
            await refreshExports(for: closed, now: open.last?.point.time)
        } catch {
            logger.error("cannot close the trip left open", metadata: ["trip": "\(open.trip.id)", "error": "\(error)"])
        }
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
            await attempt("note an outage") { try await log.recordGap(gap, tripID: tripID) }
        case .idle(let alert):
            await flushResumption()
            await attempt("note an idle alert") { try await log.recordIdleAlert(alert, tripID: tripID) }
        case .fixLost(let since):
            await flushResumption()
            await attempt("note the loss of fix") {
                try await log.recordEvent(.fixLost, time: since, tripID: tripID, detail: "no usable fix")
            }
        case .fixRegained(let time, let after):
            await flushResumption()
            await attempt("note the fix regained") {
                try await log.recordEvent(.fixRegained, time: time, tripID: tripID,
                                          detail: "usable fixes again after \(Int(after.rounded())) s")
            }
        case .tripEnded(let trip):
            await flush()
            let summary = TripSummary(start: trip.start, end: trip.end, startPosition: trip.startPosition,
                                      endPosition: trip.endPosition, measuredDistance: trip.measuredDistance,
                                      purpose: stopPurpose, endReason: endReason, closedAt: trip.end ?? now())
            do {
                let closed = try await log.closeTrip(tripID, summary, resuming: resumption)
                lastClosed = closed
                await refreshExports(for: closed, now: trip.end)
            } catch {
                logger.error("cannot close the trip in the log", metadata: ["trip": "\(tripID)", "error": "\(error)"])
            }
            self.tripID = nil
            pending.removeAll()
            resumption = nil
        case .stopped:
            await flush()
        case .tripStarted, .tripResumed, .tripAlreadyRunning, .noTripRunning, .startedMoving, .displaced:
            break
        }
    }

    /// Commits the batched points if the vehicle stands or the commit interval has passed. Ticks come on a fixed
    /// cadence but are handled a little late, by more or less each time: a tick counts as one commit interval after
    /// the last commit when it is within half a tick of it (else, at a one-second interval, one tick in two or so
    /// would fall a hair short and the commits would come every two seconds).
    mutating func tick(now: MonotonicInstant, moving: Bool) async {
        guard !pending.isEmpty else { return }
        if moving, let lastFlush, now.seconds(since: lastFlush) < settings.commitInterval - settings.tickInterval / 2 { return }
        lastFlush = now
        await flush()
    }

    /// Commits the batched points now, with the resumption of a trip carried on after a power cut when it has not
    /// been committed yet (a resumption waits for points: alone it would not move the trip past the cut).
    mutating func flush() async {
        guard let tripID, !pending.isEmpty else { return }
        do {
            try await log.appendPoints(pending, to: tripID, resuming: resumption)
            pending.removeAll()
            resumption = nil
            if failing {
                failing = false
                logger.notice("track points are stored again")
            }
        } catch {
            if !failing {
                failing = true
                logger.error("cannot store track points; they are kept in memory and retried",
                             metadata: ["error": "\(error)", "pending": "\(pending.count)"])
            }
            // Bounded: beyond an hour of points the oldest go (the trip's distance is kept by the engine).
            if pending.count > 3600 { pending.removeFirst(pending.count - 3600) }
        }
    }

    /// Commits a pending resumption with the points so far, if there are any, before another event of the trip,
    /// so that the trip's events stay in order.
    private mutating func flushResumption() async {
        if resumption != nil { await flush() }
    }

    /// Notes in the running trip's events that the GPS source failed (once per outage, as the source reports it).
    func sourceLost(_ reason: String, at time: UTCTime?) async {
        guard let tripID else { return }
        await attempt("note the lost GPS source") {
            try await log.recordEvent(.error, time: time, tripID: tripID, detail: "GPS source lost: \(reason)")
        }
    }

    private func attempt(_ what: String, _ body: () async throws -> Void) async {
        do {
            try await body()
        } catch {
            logger.error("cannot \(what) in the log", metadata: ["error": "\(error)"])
        }
    }

    private func refreshExports(for trip: LogTrip, now: UTCTime?) async {
        guard let exports, let date = trip.date else { return }
        do {
            let files = try await exports.refresh(month: date, from: log,
                                                  now: now ?? UTCTime(secondsSinceEpoch: Date().timeIntervalSince1970))
            logger.info("exports refreshed", metadata: ["files": "\(files.joined(separator: ", "))"])
        } catch {
            logger.error("cannot refresh the month's exports", metadata: ["error": "\(error)"])
            await attempt("note the failed export") {
                try await log.recordEvent(.error, time: now, tripID: trip.id, detail: "the month's exports were not refreshed: \(error)")
            }
        }
    }
}
