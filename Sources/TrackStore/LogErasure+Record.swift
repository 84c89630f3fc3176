import TrackCore

/// An erasure's record in the hash chain: what, when, by whom and why, and the records and tracks it erased, by
/// sequence number and digest. It names no place and no person, so it is never erased itself (but by `all`).
extension LogErasure {
    /// A track an erasure took away: the trip, how many points, and their digest (`Ledger.trackDigest`).
    struct ErasedTrack: Hashable {
        var trip: TripID
        var points: Int
        var sha256: String
    }

    /// The canonical text of the erasure's chain record.
    func canonical(erasedRecords: [Int64], tracks: [ErasedTrack]) -> String {
        var record = CanonicalRecord()
        record.add("target", target.rawValue)
        record.add("scope", scope)
        record.add("time", time.iso8601(fractionDigits: 3))
        record.add("time_source", timeSource)
        record.add("user", user)
        record.add("reason", reason)
        record.add("trips", trips.map(\.description).joined(separator: ","))
        record.add("track_points", trackPoints)
        record.add("tracks", tracks.map { "\($0.trip):\($0.points):\($0.sha256)" }.joined(separator: ","))
        record.add("revisions", revisions)
        record.add("erased_records", erasedRecords.map(String.init).joined(separator: ","))
        return record.text
    }

    /// The erasure a chain record describes, and the records it erased; `nil` for a record that does not read as one.
    static func fromRecord(_ payload: String, seq: Int64) -> (erasure: LogErasure, erasedRecords: [Int64])? {
        let fields = CanonicalRecord.fields(of: payload)
        guard let target = CanonicalRecord.text(fields["target"]).flatMap(ErasureTarget.init(rawValue:)),
              let time = CanonicalRecord.text(fields["time"]).flatMap(UTCTime.init(iso8601:)),
              let erased = CanonicalRecord.text(fields["erased_records"])
        else { return nil }
        func list(_ key: String) -> [Int64] {
            (CanonicalRecord.text(fields[key]) ?? "").split(separator: ",").compactMap { Int64($0) }
        }
        let erasure = LogErasure(
            chainRecord: seq, target: target, scope: CanonicalRecord.text(fields["scope"]) ?? "",
            time: time, timeSource: CanonicalRecord.text(fields["time_source"]) ?? "",
            user: CanonicalRecord.text(fields["user"]) ?? "", reason: CanonicalRecord.text(fields["reason"]),
            trips: list("trips").map { TripID($0) }, trackPoints: fields["track_points"].flatMap { Int($0) } ?? 0,
            chainRecords: erased.split(separator: ",").count, revisions: fields["revisions"].flatMap { Int($0) } ?? 0,
            done: true)
        return (erasure, erased.split(separator: ",").compactMap { Int64($0) })
    }
}
