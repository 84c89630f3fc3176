import TrackCore
import TrackSQLite

extension MileageLog {
    /// Moves what the running trip's point file holds into the log in one transaction: the points later than the
    /// trip's last stored one, and its ends. Taking the same file twice changes nothing, so a settle cut off after
    /// its commit, before the file was emptied, is simply made again. A trip that is not open takes no points
    /// (a refusal: `StoreError.isRefusal`).
    ///
    /// The pages the transaction brought into the page cache are freed after it: a taking fills the cache with the
    /// track's new pages, which nothing reads again before the next taking (docs/benchmarks.md, "Memory").
    public func settle(_ contents: TrackPointFile.Contents) async throws(StoreError) {
        try await write("store track points from the point file") { db in
            try MileageLog.settle(contents, db)
        }
        try? await writer.writeWithoutTransaction { db in db.releaseMemory() }
    }

    static func settle(_ contents: TrackPointFile.Contents, _ db: Database) throws {
        let tripID = contents.tripID
        let row = try Row.fetchOne(db, sql: "SELECT state, route FROM trip WHERE id = ?", arguments: [tripID])
        let state: String? = try row?["state"]
        guard state == "open" else {
            throw state == nil ? StoreError.unknownTrip(tripID)
                : StoreError.invalid("trip \(tripID) is \(state ?? "") in the log; its track takes no more points")
        }
        let last = try Int64.fetchOne(db, sql: "SELECT MAX(time_ms) FROM track_point WHERE trip_id = ?",
                                      arguments: [tripID])
        let points = contents.points(after: last)
        if try row?["route"] == TripRoute.recorded.rawValue {
            try MileageLog.insertPoints(points, tripID: tripID, db)
        } else {
            try MileageLog.noteProgress(points, tripID: tripID, db)
        }
        if let ends = contents.ends { try MileageLog.noteEnds(ends, tripID: tripID, db) }
    }
}
