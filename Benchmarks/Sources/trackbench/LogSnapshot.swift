import Foundation
import GRDB
import TrackCore
import TrackStore

/// What a card reader finds in trackd's state folder after a power cut: the database, its `-wal` and the running
/// trip's point file copied as they are, opened, and read — the integrity check, the trips, their track points (the
/// log's and those waiting in the point file, as trackd's next start takes them) and their events.
struct LogSnapshot: Sendable {
    /// One row of `trip`, as far as the power-cut checks look at it.
    struct TripRow: Sendable, Equatable {
        var id: Int64
        var state: String
        var endReason: String?
        var start: String?
        var end: String?
        var distance: Double
        var gapCount: Int
        var bridgedSeconds: Double
        /// Track points stored, and the GPS time of the newest (ms since 1970).
        var points: Int
        var lastPointMilliseconds: Int64?
        /// `resumed` and `power-lost` events of the trip.
        var resumedEvents: Int
        var powerLostEvents: Int
    }

    var integrity: String
    var trips: [TripRow]
    /// Outage records of one trip that start at the same instant: the same stretch counted twice.
    var duplicatedGaps: [String]
    /// Track-point times stored more than once (across all trips).
    var duplicatedPointTimes: Int

    /// The trip still open, if any.
    var openTrip: TripRow? { trips.first { $0.state == "open" } }

    /// Copies `database` (and its `-wal`) into `folder` as `name` and reads the copy.
    static func read(database: String, copyingInto folder: String, name: String) throws(HarnessError) -> LogSnapshot {
        let copy = "\(folder)/\(name).sqlite"
        let files = FileManager.default
        do {
            for suffix in ["", "-wal", "-shm", "-points"] { try? files.removeItem(atPath: copy + suffix) }
            try files.copyItem(atPath: database, toPath: copy)
            for suffix in ["-wal", "-points"] where files.fileExists(atPath: database + suffix) {
                try files.copyItem(atPath: database + suffix, toPath: copy + suffix)
            }
        } catch {
            throw .databaseUnreadable(path: database, reason: "copy failed: \(error)")
        }
        let waiting: TrackPointFile.Contents?
        do {
            waiting = try TrackPointFile.read(path: TrackPointFile.path(forLog: copy))
        } catch {
            throw .databaseUnreadable(path: database + "-points", reason: "\(error)")
        }
        do {
            let queue = try DatabaseQueue(path: copy)
            defer { try? queue.close() }
            return try queue.read { db in
                let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ")
                let rows = try Row.fetchAll(db, sql: """
                    SELECT t.id, t.state, t.end_reason, t.start_time, t.end_time, t.distance, t.gap_count, t.bridged_seconds,
                        (SELECT COUNT(*) FROM track_point p WHERE p.trip_id = t.id) AS points,
                        (SELECT MAX(time_ms) FROM track_point p WHERE p.trip_id = t.id) AS last_ms,
                        (SELECT COUNT(*) FROM event e WHERE e.trip_id = t.id AND e.kind = 'resumed') AS resumed,
                        (SELECT COUNT(*) FROM event e WHERE e.trip_id = t.id AND e.kind = 'power-lost') AS power_lost
                    FROM trip t ORDER BY t.id
                    """)
                let trips = rows.map { row in
                    var trip = TripRow(id: row["id"], state: row["state"], endReason: row["end_reason"], start: row["start_time"],
                                       end: row["end_time"], distance: row["distance"], gapCount: row["gap_count"],
                                       bridgedSeconds: row["bridged_seconds"], points: row["points"],
                                       lastPointMilliseconds: row["last_ms"], resumedEvents: row["resumed"],
                                       powerLostEvents: row["power_lost"])
                    // The open trip's newer points in the point file count as stored: the next start takes them.
                    if let waiting, waiting.tripID.rawValue == trip.id, trip.state == "open" {
                        let newer = waiting.points(after: trip.lastPointMilliseconds)
                            .map { $0.point.time.nanosecondsSinceEpoch / 1_000_000 }
                        trip.points += newer.count
                        trip.lastPointMilliseconds = newer.last ?? trip.lastPointMilliseconds
                    }
                    return trip
                }
                let gaps = try Row.fetchAll(db, sql: """
                    SELECT trip_id, time, COUNT(*) AS n FROM event WHERE kind = 'gap' GROUP BY trip_id, time HAVING n > 1
                    """).map { row -> String in
                    "trip \(row["trip_id"] as Int64? ?? 0): \(row["n"] as Int) outages from \(row["time"] as String? ?? "?")"
                }
                let duplicatedPoints = try Int.fetchOne(db, sql: """
                    SELECT COUNT(*) FROM (SELECT time_ms FROM track_point GROUP BY time_ms HAVING COUNT(*) > 1)
                    """) ?? 0
                return LogSnapshot(integrity: integrity, trips: trips, duplicatedGaps: gaps, duplicatedPointTimes: duplicatedPoints)
            }
        } catch {
            throw .databaseUnreadable(path: copy, reason: "\(error)")
        }
    }
}
