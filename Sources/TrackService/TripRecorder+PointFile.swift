import CMallocTuning
import Logging
import TrackCore
import TrackStore

/// The point file: the running trip's points and ends committed to a file of their own between the trip's events,
/// and moved into the log in one transaction (`MileageLog.settle`) before any other write, when the file passes
/// `settleBytes`, and at start (docs/storage.md, "The point file").
extension TripRecorder {
    /// Whether trip `tripID`'s points go to the point file: there is one, the trip keeps its route, and the log
    /// has its first points.
    func usesPointFile(for tripID: TripID) -> Bool {
        pointFile != nil && routeKept && startInLog && tripID == self.tripID
    }

    /// Commits points and ends to the point file (what another life of trackd left in it goes into the log first),
    /// and moves the file into the log once it has grown past its bound.
    mutating func appendToPointFile(_ points: [RecordedPoint], ends: TripEnds?, tripID: TripID) async throws(StoreError) {
        guard let pointFile else { return }
        if pointFile.size == 0 { try await settlePointFile(checkingLeftovers: true) }
        try await pointFile.append(points, ends: ends, tripID: tripID)
        if pointFile.size >= settings.settleBytes {
            try await settlePointFile()
            // The move read the whole file into memory (an hour of driving at 1 Hz): back to the system with it.
            trackd_malloc_trim()
        }
    }

    /// Moves what the point file holds into the log and empties the file, overwriting it first when `zeroing` (an
    /// erasure follows). Points of a trip the log no longer takes (closed meanwhile) are given up, and said so.
    /// `checkingLeftovers`: read the file even if this recorder wrote nothing to it (at start, say).
    mutating func settlePointFile(zeroing: Bool = false, checkingLeftovers: Bool = false) async throws(StoreError) {
        guard let pointFile, pointFile.size > 0 || zeroing || checkingLeftovers else { return }
        if let contents = try await pointFile.contents() {
            do {
                try await log.settle(contents)
            } catch where error.isRefusal {
                logger.error("points of the point file cannot go into the log; they are given up", metadata: [
                    "trip": "\(contents.tripID)", "points": "\(contents.points.count)", "error": "\(error)",
                ])
            }
            if checkingLeftovers, !contents.points.isEmpty {
                logger.notice("track points left in the point file went into the log", metadata: [
                    "trip": "\(contents.tripID)", "points": "\(contents.points.count)",
                ])
            }
        }
        try await pointFile.reset(zeroing: zeroing)
    }

    /// At start, before a trip left open is looked for: what the point file holds goes into the log (a trip a power
    /// cut left open ends at its last committed point, wherever it was committed).
    mutating func settleLeftovers() async {
        do {
            try await settlePointFile(checkingLeftovers: true)
        } catch {
            logger.error("cannot move the point file into the log at start; trackd tries again with the next commit",
                         metadata: ["error": "\(error)"])
        }
    }
}
