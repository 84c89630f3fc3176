import Crypto
import GRDB
import TrackCore

/// The hash chain over the log: every record the tax office relies on (trips, revisions, odometer readings, the
/// profile, regular trips) is appended, in the same transaction as the change, with
/// `hash = SHA-256(previous hash, subject, reference, canonical text)`.
enum Ledger {
    /// What a chain record covers.
    enum Subject: String, CaseIterable {
        case trip, revision, odometer, profile, regular
    }

    /// Appends a record and returns its hash.
    @discardableResult
    static func append(_ db: Database, _ subject: Subject, ref: String, payload: String) throws -> String {
        let previous = try String.fetchOne(db, sql: "SELECT hash FROM ledger ORDER BY seq DESC LIMIT 1") ?? ""
        let hash = digest(previous: previous, subject: subject.rawValue, ref: ref, payload: payload)
        try db.execute(sql: "INSERT INTO ledger (subject, ref, payload, hash) VALUES (?, ?, ?, ?)",
                       arguments: [subject.rawValue, ref, payload, hash])
        return hash
    }

    /// The chain's newest hash, or `nil` for an empty log.
    static func head(_ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT hash FROM ledger ORDER BY seq DESC LIMIT 1")
    }

    static func digest(previous: String, subject: String, ref: String, payload: String) -> String {
        var hasher = SHA256()
        for part in [previous, subject, ref, payload] {
            hasher.update(data: Array(part.utf8))
            hasher.update(data: [0x0A])
        }
        return hasher.finalize().hex
    }

    /// SHA-256 over a trip's track points, in order, in their stored integer form.
    static func trackDigest(_ db: Database, tripID: TripID) throws -> (digest: String, points: Int) {
        var hasher = SHA256()
        var count = 0
        let rows = try Row.fetchCursor(db, sql: """
            SELECT seq, time_ms, lat_e7, lon_e7, speed_cms, error_cm, distance_cm, segment
            FROM track_point WHERE trip_id = ? ORDER BY seq
            """, arguments: [tripID])
        while let row = try rows.next() {
            let fields: [Int64?] = [row["seq"], row["time_ms"], row["lat_e7"], row["lon_e7"], row["speed_cms"],
                                    row["error_cm"], row["distance_cm"], row["segment"]]
            let line = fields.map { $0.map { String($0) } ?? "-" }.joined(separator: ",") + "\n"
            hasher.update(data: Array(line.utf8))
            count += 1
        }
        return (hasher.finalize().hex, count)
    }
}

extension Digest {
    /// Lower-case hexadecimal.
    var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        for byte in self {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
