import Logging
import TrackCore

/// What the engine decided, told to the journal and to the watchers.
extension TrackerService {
    /// Tells the journal and the watchers what happened; `endReason` says why a trip that ends ends.
    func report(_ event: EngineEvent, endReason: String) {
        switch event {
        case .tripStarted(let trip):
            let notice = TripNotice(.started, trip)
            logger.notice("trip started", metadata: notice.trip.logMetadata.merging(
                ["message_id": "\(LogMessageID.tripStarted)"]) { $1 })
            hub.publish(.trip(notice))
        case .tripResumed(let trip):
            let notice = TripNotice(.resumed, trip)
            logger.notice("trip resumed after a power cut", metadata: notice.trip.logMetadata.merging(
                ["message_id": "\(LogMessageID.tripResumed)"]) { $1 })
            hub.publish(.trip(notice))
        case .tripAlreadyRunning(let trip):
            logger.info("trip already running", metadata: ["trip": "\(trip.number)"])
        case .tripEnded(let trip):
            let notice = TripNotice(.ended, trip)
            hub.publish(.trip(notice))
            logger.notice(endReason == "shutdown" ? "trip ended at shutdown" : "trip ended",
                          metadata: notice.trip.logMetadata.merging(
                              ["end_reason": "\(endReason)", "message_id": "\(LogMessageID.tripEnded)"]) { $1 })
        case .noTripRunning:
            logger.info("no trip running")
        case .idle(let alert):
            hub.publish(.alert(alert))
            let stationary = alert.time.seconds(since: alert.stationarySince)
            logger.warning("idle alert: stationary for \(DurationText.of(stationary))", metadata: [
                "trip": "\(alert.tripNumber)", "since": "\(alert.stationarySince)", "time": "\(alert.time)",
                "stationary_s": "\(Int(stationary.rounded()))",
                "trip_id": "\(alert.tripNumber)", "message_id": "\(LogMessageID.idleAlert)",
            ])
        case .fixLost(let since):
            logger.warning("no usable fix", metadata: ["since": "\(since.map { "\($0)" } ?? "start")"])
        case .fixRegained(let time, let after):
            logger.notice("usable fixes again", metadata: ["time": "\(time)", "after_s": "\(Int(after.rounded()))"])
        case .gap(let gap):
            logger.info("outage", metadata: [
                "start": "\(gap.start)", "duration_s": "\(Int(gap.duration.rounded()))",
                "outcome": "\(gap.outcome.rawValue)", "distance_m": "\(Int(gap.distance.rounded()))",
            ])
        case .startedMoving(let time):
            logger.debug("moving", metadata: ["since": "\(time)"])
        case .stopped(let time):
            logger.debug("stationary", metadata: ["since": "\(time)"])
        case .displaced(let time, let metres):
            logger.info("moved while stationary by speed", metadata: ["time": "\(time)", "distance_m": "\(Int(metres.rounded()))"])
        case .trackPoint:
            break
        }
    }
}
