import TrackCore
import TrackSQLite

/// A closed trip's track read point by point from the log, as often as asked, for files written in bounded memory
/// (`MileageLog.readTrack`): valid only inside the read that hands it out.
public struct TrackPointReader {
    let db: Database
    /// The trip whose points are read.
    public let tripID: TripID

    /// Calls `body` with each point and its segment number, in order.
    public func forEach(_ body: (RecordedPoint) throws -> Void) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT * FROM track_point WHERE trip_id = ? ORDER BY seq",
                                       arguments: [tripID])
        while let row = try rows.next() {
            try body(try StoredPoint(row: row).recorded)
        }
    }
}
