import CMallocTuning
import Logging
import TrackCore
import TrackStore

/// The writes: track points batched to a commit interval, and whatever failed kept in order and tried again
/// while the log cannot be written (`Backlog`).
extension TripRecorder {
    /// Commits the batched points if the vehicle stands or the commit interval has passed; while the log cannot be
    /// written, tries what waits again once per commit interval. Ticks come on a fixed
    /// cadence but are handled a little late, by more or less each time: a tick counts as one commit interval after
    /// the last commit when it is within half a tick of it (else, at a one-second interval, one tick in two or so
    /// would fall a hair short and the commits would come every two seconds).
    mutating func tick(now: MonotonicInstant, moving: Bool, ends: TripEnds? = nil) async {
        if let ends { note(ends, moving: moving) }
        guard !pending.isEmpty || !backlog.isEmpty else { return }
        // Moving, failing, or standing with nothing but the ends to write: once a commit interval (standing with
        // new points, at once: the stop is on the card before the engine goes off).
        if moving || failure != nil || pending.isEmpty, let lastFlush,
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
    mutating func batch() {
        guard let tripID, !pending.isEmpty else { return }
        backlog.append(.points(pending, tripID: tripID, resumption: resumption))
        pending.removeAll()
        resumption = nil
    }

    /// Keeps the running trip's start and (while the car stands) its end in the row once either has moved a metre
    /// from what the row holds: a few small writes while a stop's mean settles, none while driving (the last stored
    /// point is the end then), so that a trip a power cut closes starts and ends where the car stood.
    mutating func note(_ ends: TripEnds, moving: Bool) {
        guard let tripID else { return }
        func moved(_ new: Coordinate?, from old: Coordinate?) -> Coordinate? {
            guard let new else { return nil }
            guard let old else { return new }
            return Geodesic.distance(from: new, to: old) >= 1 ? new : nil
        }
        let change = TripEnds(start: moved(ends.start, from: storedEnds.start),
                              end: moving ? nil : moved(ends.end, from: storedEnds.end))
        guard change.start != nil || change.end != nil else { return }
        storedEnds = TripEnds(start: change.start ?? storedEnds.start, end: change.end ?? storedEnds.end)
        backlog.append(.ends(change, tripID: tripID))
    }

    /// Commits a pending resumption with the points so far, if there are any, before another event of the trip,
    /// so that the trip's events stay in order.
    mutating func flushResumption() async {
        if resumption != nil { await flush() }
    }

    /// Makes a write after whatever waits.
    mutating func write(_ write: Backlog.Write) async {
        backlog.append(write)
        await drain()
    }

    /// Makes the waiting writes in order until one fails; it and those after it stay, to be tried again (a full or
    /// read-only card, another program's lock, a database error that may pass). Only a write the log refuses as
    /// asked, which can never succeed (the trip is not open any more, …), is logged and given up.
    mutating func drain() async {
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

    mutating func perform(_ write: Backlog.Write) async throws(StoreError) {
        // The point file takes the running trip's points and ends between its events; anything else goes into the
        // log after what the file holds, so that the log keeps the trip's order.
        switch write {
        case .points(let points, let tripID, nil, let ends) where usesPointFile(for: tripID):
            try await appendToPointFile(points, ends: ends, tripID: tripID)
            return
        case .ends(let ends, let tripID) where usesPointFile(for: tripID):
            try await appendToPointFile([], ends: ends, tripID: tripID)
            return
        default:
            try await settlePointFile()
        }
        switch write {
        case .points(let points, let tripID, let resumption, let ends):
            try await log.appendPoints(points, to: tripID, resuming: resumption, ends: ends)
            if tripID == self.tripID, !points.isEmpty { startInLog = true }
        case .gap(let gap, let tripID):
            try await log.recordGap(gap, tripID: tripID)
        case .idleAlert(let alert, let tripID):
            try await log.recordIdleAlert(alert, tripID: tripID)
        case .event(let kind, let time, let tripID, let detail):
            try await log.recordEvent(kind, time: time, tripID: tripID, detail: detail)
        case .ends(let ends, let tripID):
            try await log.noteEnds(ends, tripID: tripID)
        case .close(let tripID, let summary, let resumption, let afterPowerLoss, let exportsAt):
            let closed = await fillFromPlace(try await log.closeTrip(
                tripID, summary, resuming: resumption, erasingPrivateRoutes: privacy.erasesRoutesOfPrivateTrips))
            if closed.rule != nil, closed.route == .erased {
                // A rule made the trip private in privacy mode: its points, moved into the log before the close, are
                // written over in the point file too, as before a reclassification by hand.
                try await settlePointFile(zeroing: true)
            }
            if let rule = closed.rule, closed.toConfirm {
                logger.info("trip classified by a rule; the driver confirms it", metadata: [
                    "trip": "\(closed.id)", "rule": "\(rule.id.map { "\($0)" } ?? "")", "rule_text": "\(rule.text)",
                    "kind": "\(closed.kind)",
                ])
            }
            if let reason = afterPowerLoss {
                logger.notice("trip closed after a power cut", metadata: [
                    "trip": "\(closed.id)", "reason": "\(reason)", "distance_m": "\(Int(closed.distance.rounded()))",
                ])
            } else {
                lastClosed = closed
                closeDeferred = nil
            }
            await refreshExports(for: closed, now: exportsAt)
            if let end = closed.end, closed.source == .gps { await eraseExpiredRoutes(at: end) }
            // The close read the whole track (its digest, the GPX): its memory goes back to the system.
            trackd_malloc_trim()
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
    mutating func noteSuccess() {
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

    /// At shutdown: says what could not be stored (memory does not outlive trackd; a trip whose close waits stays
    /// open in the log, and the next start recovers it as after a power cut).
    func reportLoss() {
        guard !backlog.isEmpty || (!pending.isEmpty && failure != nil) else { return }
        logger.error("trackd stops while the mileage log cannot be written: what was kept in memory is lost",
                     metadata: ["points": "\(pending.count + backlog.points)", "records": "\(backlog.records)"])
    }
}
