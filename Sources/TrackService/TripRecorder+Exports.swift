import Logging
import TrackCore
import TrackStore

/// The plain-file exports, brought up to date after each trip and each change to one.
extension TripRecorder {
    /// Refreshes the plain files of a trip that closed or changed (its month's CSV, its GPX); a failure is noted in
    /// the journal and the log.
    func refreshExports(for trip: LogTrip, now: UTCTime?) async {
        guard let exports, trip.date != nil else { return }
        do {
            let files = try await exports.refresh(trip: trip, from: log, now: now ?? wallClock())
            logger.info("exports refreshed", metadata: ["files": "\(files.joined(separator: ", "))"])
        } catch {
            logger.error("cannot refresh the exports", metadata: ["trip": "\(trip.id)", "error": "\(error)"])
            do {
                try await log.recordEvent(.error, time: now, tripID: trip.id,
                                          detail: "the exports (the month's CSV, the trip's GPX) were not refreshed: \(error)")
            } catch {
                logger.error("cannot note the failed export in the log", metadata: ["error": "\(error)"])
            }
        }
    }
}
