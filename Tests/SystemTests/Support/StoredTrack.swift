import Foundation
import TestSupport
import TrackCore
import TrackStore

/// The track points a log on the card holds, wherever they were committed: the log's own, and the running trip's
/// newer ones waiting in the point file beside it (`trackd.sqlite-points`), as trackd's next start or
/// `trackctl --db` would take them.
struct StoredTrack {
    /// GPS times of the points, milliseconds since the epoch, in order.
    var times: [Int64]

    var count: Int { times.count }
    var last: Int64? { times.last }

    /// Reads the log at `database` and its point file. While trackd runs, a point moving from the file into the log
    /// between the two reads may be missed (read again), never counted twice.
    static func of(_ database: String) async throws -> StoredTrack {
        let logged = try await query(database, "SELECT time_ms FROM track_point ORDER BY trip_id, seq")
            .split(separator: "\n").compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        let waiting = try TrackPointFile.read(path: TrackPointFile.path(forLog: database))?.points(after: logged.max())
            .map { $0.point.time.nanosecondsSinceEpoch / 1_000_000 } ?? []
        return StoredTrack(times: logged + waiting)
    }
}
