import TrackSQLite
import TrackCore

extension MileageLog {
    /// The watermark of `transport` (`mqtt`, `osmand`): how far the log was acknowledged by its receiver;
    /// `UplinkCursor.origin` (nothing sent) for a transport never used.
    public func uplinkCursor(_ transport: String) async throws(StoreError) -> UplinkCursor {
        try await read("read the uplink's watermark") { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM uplink_cursor WHERE transport = ?",
                                             arguments: [transport]) else { return .origin }
            return try UplinkCursor(tripID: TripID(row["trip_id"] as Int64), started: row["started"], pointSeq: row["point_seq"],
                                    eventID: row["event_id"], ended: row["ended"])
        }
    }

    /// Keeps the watermark of `transport` (one small row, overwritten).
    public func saveUplinkCursor(_ cursor: UplinkCursor, transport: String) async throws(StoreError) {
        try await write("keep the uplink's watermark") { db in
            try db.execute(sql: """
                INSERT INTO uplink_cursor (transport, trip_id, started, point_seq, event_id, ended)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (transport) DO UPDATE SET trip_id = excluded.trip_id, started = excluded.started,
                    point_seq = excluded.point_seq, event_id = excluded.event_id, ended = excluded.ended
                """, arguments: [transport, cursor.tripID, cursor.started, cursor.pointSeq, cursor.eventID, cursor.ended])
        }
    }

    /// Up to `limit` items after `cursor`, in the log's order: trip by trip, its start (once known), its points and
    /// events merged by time, its end once closed. An open trip's items stop at what is stored so far.
    public func uplinkItems(after cursor: UplinkCursor, limit: Int) async throws(StoreError) -> [UplinkItem] {
        try await read("read what the uplink sends") { db in
            try MileageLog.uplinkItems(db, after: cursor, limit: limit)
        }
    }

    /// The newest stored track point, as an item (the live position).
    public func newestUplinkPoint() async throws(StoreError) -> UplinkItem? {
        try await read("read the newest position") { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM track_point ORDER BY trip_id DESC, seq DESC LIMIT 1")
            else { return nil }
            return try .point(StoredPoint(row: row).recorded.point, tripID: TripID(row["trip_id"] as Int64), seq: row["seq"])
        }
    }

    /// Track points stored after `cursor` (the backlog).
    public func uplinkBacklog(after cursor: UplinkCursor) async throws(StoreError) -> Int {
        try await read("count the uplink's backlog") { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM track_point WHERE trip_id > ? OR (trip_id = ? AND seq > ?)
                """, arguments: [cursor.tripID, cursor.tripID, cursor.pointSeq]) ?? 0
        }
    }

    static func uplinkItems(_ db: Database, after start: UplinkCursor, limit: Int) throws -> [UplinkItem] {
        var items: [UplinkItem] = []
        var cursor = start
        while items.count < limit {
            let row = try Row.fetchOne(db, sql: "SELECT * FROM trip WHERE id \(cursor.ended ? ">" : ">=") ? ORDER BY id LIMIT 1",
                                       arguments: [cursor.tripID])
            guard let row else { break }
            let trip = try MileageLog.soFar(LogTrip(row: row), db)
            if trip.id != cursor.tripID { cursor = .beginning(of: trip.id) }
            if !cursor.started {
                if trip.source != .gps || trip.state == .deleted {
                    cursor.started = true
                } else if trip.start != nil || trip.state != .open {
                    items.append(.tripStarted(trip))
                    cursor.started = true
                } else {
                    break   // an open trip without a start yet: nothing of it to send
                }
            }
            let room = limit - items.count
            let points = try Row.fetchAll(db, sql: """
                SELECT * FROM track_point WHERE trip_id = ? AND seq > ? ORDER BY seq LIMIT ?
                """, arguments: [trip.id, cursor.pointSeq, room]).map { row -> UplinkItem in
                    try .point(StoredPoint(row: row).recorded.point, tripID: trip.id, seq: row["seq"])
                }
            let events = try Row.fetchAll(db, sql: """
                SELECT * FROM event WHERE trip_id = ? AND id > ? AND kind IN (\(UplinkItem.sentEvents.map { "'\($0.rawValue)'" }.joined(separator: ", ")))
                ORDER BY id LIMIT ?
                """, arguments: [trip.id, cursor.eventID, room]).compactMap(LogEvent.init(row:)).map(UplinkItem.event)
            // Merged by time, each stream in its own order; an event without a time goes where its number puts it.
            var merged: [UplinkItem] = []
            var p = points.startIndex, e = events.startIndex
            while merged.count < room && (p < points.endIndex || e < events.endIndex) {
                let takePoint: Bool
                if p == points.endIndex {
                    takePoint = false
                } else if e == events.endIndex {
                    takePoint = true
                } else if case .point(let point, _, _) = points[p], case .event(let event) = events[e] {
                    takePoint = event.time.map { point.time <= $0 } ?? false
                } else {
                    takePoint = true
                }
                if takePoint { merged.append(points[p]); p += 1 } else { merged.append(events[e]); e += 1 }
            }
            for item in merged { cursor = cursor.advanced(past: item.position) }
            items += merged
            // The end, once the trip is closed and everything of it was read.
            let exhausted = p == points.endIndex && e == events.endIndex && points.count < room && events.count < room
            guard trip.state != .open, exhausted, items.count < limit else { break }
            if trip.state == .closed { items.append(.tripEnded(trip)) }
            cursor.ended = true
        }
        return items
    }
}
