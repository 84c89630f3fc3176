import Logging
import TrackCore
import TrackStore

/// A trip a power cut left open: carried on if the car is where the trip stopped and little time went by, else
/// closed at its last stored point (docs/storage.md, "Power cuts").
extension TripRecorder {
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
        guard open.trip.route.isKept else {
            await closeAfterPowerLoss(open, reason: "a trip without a route keeps no position to carry on from")
            return nil
        }
        switch settings.recovery.decide(lastPoint: open.last?.point, time: time, coordinate: coordinate, error: fix.eph) {
        case .close(let reason):
            await closeAfterPowerLoss(open, reason: reason)
            return nil
        case .resume(let gap):
            // `decide` carries on only from a stored point; without one there is nothing to carry on from.
            guard let last = open.last else {
                await closeAfterPowerLoss(open, reason: "no stored point to carry on from")
                return nil
            }
            tripID = open.trip.id
            runningOdometerStart = open.trip.odometerStart
            segment = last.segment + 1
            storedEnds = TripEnds(start: open.trip.startPosition, end: open.trip.endPosition)
            routeKept = open.trip.route.isKept
            startInLog = true
            filter.reset()
            // Recorded with the first points after the cut (see `flush`): until then the file still says the trip
            // was cut at its last stored point, and another cut decides afresh from there.
            resumption = Resumption(gap: gap, time: time,
                                    detail: "carried on after \(Int(gap.duration.rounded())) s without power; "
                                        + "\(Int(gap.distance.rounded())) m bridged")
            var trip = Trip(number: open.trip.id, kind: open.trip.kind, purpose: open.trip.purpose,
                            calibrationFactor: open.trip.calibrationFactor ?? 1, startedAt: now)
            trip.start = open.first?.point.time ?? open.trip.start
            trip.startPosition = open.startPosition
            trip.end = last.point.time
            trip.endPosition = open.endPosition
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

    mutating func closeAfterPowerLoss(_ open: OpenTrip, reason: String) async {
        // A trip without a route has no points: its row notes how far it had come.
        let end = open.last?.point.time ?? (open.trip.route.isKept ? nil : open.trip.end)
        let summary = TripSummary(start: open.first?.point.time, end: end,
                                  startPosition: open.startPosition, endPosition: open.endPosition,
                                  measuredDistance: open.last?.point.distance
                                      ?? (open.trip.route.isKept ? 0 : open.trip.measuredDistance ?? 0),
                                  purpose: nil, endReason: "power-lost")
        backlog.append(.close(tripID: open.trip.id, summary, resumption: nil, afterPowerLoss: reason,
                              exportsAt: end))
        backlog.append(.event(.powerLost, time: end, tripID: open.trip.id,
                              detail: "closed at its last stored " + (open.trip.route.isKept ? "point" : "progress")
                                  + ": \(reason)"))
        await drain()
    }
}
