import TrackCore
import TrackSQLite

extension MileageLog {
    /// Where the car was parked before trip `tripID`: the end of the entry just before it, when that is a closed GPS
    /// trip that kept its end and its time (not a trip without a route, a manual entry, a deleted one, or driving
    /// the odometer found unrecorded: after those the car's place is not known), with the error of its last stored
    /// point. `poweredAt` is left for the caller.
    public func parkedSpot(before tripID: TripID) async throws(StoreError) -> ParkedOrigin? {
        try await read("find where the car was parked") { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM trip WHERE id < ? ORDER BY id DESC LIMIT 1",
                                             arguments: [tripID])
            else { return nil }
            let previous = try LogTrip(row: row)
            guard previous.source == .gps, previous.state == .closed, previous.route.isKept, let end = previous.end,
                  let spot = previous.endPosition
            else { return nil }
            let error = try MileageLog.lastPoint(of: previous.id, db)?.recorded.point.error
            return ParkedOrigin(coordinate: spot, error: error, time: end, poweredAt: nil)
        }
    }
}
