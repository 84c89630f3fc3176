import Logging
import TrackCore
import TrackStore

/// The month's plain-file exports, refreshed after each trip.
extension TripRecorder {
    /// Refreshes the plain files of the closed trip's month; a failure is noted in the journal and the log.
    func refreshExports(for trip: LogTrip, now: UTCTime?) async {
        guard let exports, let date = trip.date else { return }
        do {
            let files = try await exports.refresh(month: date, from: log,
                                                  now: now ?? wallClock())
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
