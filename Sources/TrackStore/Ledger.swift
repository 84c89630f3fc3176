import TrackDigest
import TrackSQLite
import TrackCore

/// The hash chain over the log: every record the tax office relies on (trips, revisions, odometer readings, the
/// profile, regular trips, erasures) is appended, in the same transaction as the change, with
/// `hash = SHA-256(previous hash, subject, reference, "sha256:" + SHA-256(canonical text))`.
///
/// Because a record's hash covers the digest of its text rather than the text, the text can be erased (set to
/// `NULL`) and the chain still verifies: the digest stays as the record's tombstone, and the erasure's own record
/// names every record it erased, so that an erasure made outside trackd shows. Logs written before this format
/// (chain format 1 hashed the text itself) are brought forward by the schema step `v2-erasable-chain`, which keeps
/// each record's first hash in `v1_hash`.
enum Ledger {
    /// What a chain record covers.
    enum Subject: String, CaseIterable {
        case trip, revision, odometer, profile, regular, erasure, chain, place, rule
    }

    /// The payload of a record whose object was removed by trackd (a regular trip, a trip erased with its log).
    static let removed = "removed"

    /// Appends a record and returns its sequence number.
    @discardableResult
    static func append(_ db: Database, _ subject: Subject, ref: String, payload: String) throws -> Int64 {
        let previous = try String.fetchOne(db, sql: "SELECT hash FROM ledger ORDER BY seq DESC LIMIT 1") ?? ""
        let payloadDigest = sha256(payload)
        let hash = recordDigest(previous: previous, subject: subject.rawValue, ref: ref, payloadSHA256: payloadDigest)
        try db.execute(sql: "INSERT INTO ledger (subject, ref, payload, payload_sha256, hash) VALUES (?, ?, ?, ?, ?)",
                       arguments: [subject.rawValue, ref, payload, payloadDigest, hash])
        return db.lastInsertedRowID
    }

    /// The chain's newest hash, or `nil` for an empty log.
    static func head(_ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT hash FROM ledger ORDER BY seq DESC LIMIT 1")
    }

    /// Erases the text of every record of `subject ref` older than `seq` (their digests stay); returns their
    /// sequence numbers.
    static func eraseRecords(_ db: Database, _ subject: Subject, ref: String, before seq: Int64) throws -> [Int64] {
        let erased = try Int64.fetchAll(db, sql: """
            SELECT seq FROM ledger WHERE subject = ? AND ref = ? AND seq < ? AND payload IS NOT NULL ORDER BY seq
            """, arguments: [subject.rawValue, ref, seq])
        try db.execute(sql: "UPDATE ledger SET payload = NULL WHERE subject = ? AND ref = ? AND seq < ? AND payload IS NOT NULL",
                       arguments: [subject.rawValue, ref, seq])
        return erased
    }

    /// A record's hash in chain format 2: over the previous hash, the subject, the reference and the digest of
    /// the text.
    static func recordDigest(previous: String, subject: String, ref: String, payloadSHA256: String) -> String {
        digest(previous: previous, subject: subject, ref: ref, payload: "sha256:" + payloadSHA256)
    }

    /// A record's hash in chain format 1 (over the text itself); also the line hash format 2 builds on.
    static func digest(previous: String, subject: String, ref: String, payload: String) -> String {
        var hasher = SHA256()
        for part in [previous, subject, ref, payload] {
            hasher.update(part.utf8)
            hasher.update([0x0A])
        }
        return hasher.finalizeHex()
    }

    /// SHA-256 of a text, lower-case hexadecimal.
    static func sha256(_ text: String) -> String {
        SHA256.hex(of: text.utf8)
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
            let fields: [Int64?] = try [row["seq"], row["time_ms"], row["lat_e7"], row["lon_e7"], row["speed_cms"],
                                        row["error_cm"], row["distance_cm"], row["segment"]]
            let line = fields.map { $0.map { String($0) } ?? "-" }.joined(separator: ",") + "\n"
            hasher.update(line.utf8)
            count += 1
        }
        return (hasher.finalizeHex(), count)
    }
}
