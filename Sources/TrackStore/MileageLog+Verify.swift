import TrackDigest
import TrackSQLite
import TrackCore

extension MileageLog {
    /// Checks the log against its hash chain: the file's integrity, every link of the chain, and every trip, revision,
    /// odometer reading, regular trip, place, rule and the profile against the last state the chain recorded for it.
    public func verify() async throws(StoreError) -> VerificationReport {
        try await read("verify the log") { db in
            var problems: [VerificationReport.Problem] = []
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            if integrity != ["ok"] {
                problems.append(.init(record: "file", detail: "SQLite integrity check: " + integrity.prefix(3).joined(separator: "; ")))
            }

            // 1. The chain itself: each record's text against its digest, each hash against the record before it,
            //    each erased text against the erasure that names it.
            var latest: [String: (seq: Int64, payload: String?)] = [:]
            var erasedText: [Int64: String] = [:]
            var erasures: [LogErasure] = []
            var previous = ""
            var previousV1: String? = ""
            var expectedSeq: Int64 = 1
            var count = 0
            let rows = try Row.fetchCursor(db, sql: """
                SELECT seq, subject, ref, payload, payload_sha256, hash, v1_hash FROM ledger ORDER BY seq
                """)
            while let row = try rows.next() {
                let seq: Int64 = try row["seq"]
                let subject: String = try row["subject"]
                let ref: String = try row["ref"]
                let payload: String? = try row["payload"]
                let payloadDigest: String = try row["payload_sha256"]
                let hash: String = try row["hash"]
                let v1Hash: String? = try row["v1_hash"]
                let name = "chain record \(seq) (\(subject) \(ref))"
                if seq != expectedSeq {
                    problems.append(.init(record: "chain record \(expectedSeq)",
                                          detail: "records \(expectedSeq)…\(seq - 1) are missing: the chain was cut"))
                }
                if let payload, Ledger.sha256(payload) != payloadDigest {
                    problems.append(.init(record: name, detail: "its text does not match its digest: it was altered"))
                }
                if Ledger.recordDigest(previous: previous, subject: subject, ref: ref, payloadSHA256: payloadDigest) != hash {
                    problems.append(.init(record: name, detail: "its hash does not match its contents or the record "
                                          + "before it: the chain was altered here"))
                }
                // A record written before chain format 2 keeps its first hash: while its text is there, that hash
                // must still follow from it and the record before, so that a head printed back then still holds.
                if let v1Hash {
                    if let payload, let previousV1,
                       Ledger.digest(previous: previousV1, subject: subject, ref: ref, payload: payload) != v1Hash {
                        problems.append(.init(record: name, detail: "its first-format hash does not match its text "
                                              + "or the record before it: it was altered"))
                    }
                    previousV1 = v1Hash
                } else {
                    previousV1 = nil
                }
                if payload == nil { erasedText[seq] = name }
                if subject == Ledger.Subject.erasure.rawValue, let payload {
                    if let (erasure, erased) = LogErasure.fromRecord(payload, seq: seq) {
                        erasures.append(erasure)
                        for record in erased { erasedText.removeValue(forKey: record) }
                    } else {
                        problems.append(.init(record: name, detail: "does not read as an erasure"))
                    }
                }
                previous = hash
                expectedSeq = seq + 1
                latest["\(subject) \(ref)"] = (seq, payload)
                count += 1
            }
            for (seq, name) in erasedText.sorted(by: { $0.key < $1.key }) {
                problems.append(.init(record: name, detail: "its text was erased, but no erasure of trackd names "
                                      + "record \(seq): it was erased outside trackd"))
            }

            // 2. The rows against the last state the chain holds for each.
            func check(_ key: String, current: String?, name: String) {
                switch (latest.removeValue(forKey: key), current) {
                case (nil, nil):
                    break
                case (nil, .some):
                    problems.append(.init(record: name, detail: "not in the chain: it was added outside trackd"))
                case (.some(let recorded), nil):
                    if recorded.payload != Ledger.removed {
                        problems.append(.init(record: name, detail: "in the chain (record \(recorded.seq)) but missing "
                                              + "from the log: it was removed outside trackd"))
                    }
                case (.some(let recorded), .some(let current)):
                    guard let payload = recorded.payload else {
                        problems.append(.init(record: name, detail: "the text of its last recorded state (chain record "
                                              + "\(recorded.seq)) was erased, so it cannot be checked"))
                        return
                    }
                    guard payload != current else { return }
                    let fields = CanonicalRecord.differences(payload, current)
                        .map { "\($0.key) \($0.old ?? "absent") → \($0.new ?? "absent")" }
                    problems.append(.init(record: name, detail: "differs from its last recorded state (chain record "
                                          + "\(recorded.seq)): " + (fields.isEmpty ? "contents changed" : fields.joined(separator: ", "))))
                }
            }
            let trips = try Row.fetchAll(db, sql: "SELECT * FROM trip ORDER BY id")
            for row in trips {
                let id: TripID = try row["id"]
                do {
                    let trip = try LogTrip(row: row)
                    var digest: (digest: String, points: Int)?
                    if trip.source == .gps && trip.state != .open { digest = try Ledger.trackDigest(db, tripID: id) }
                    check("trip \(id)", current: trip.canonical(trackDigest: digest?.digest, points: digest?.points),
                          name: "trip \(id)")
                } catch {
                    latest.removeValue(forKey: "trip \(id)")
                    problems.append(.init(record: "trip \(id)", detail: "unreadable: \(error)"))
                }
            }
            let revisions = try Row.fetchAll(db, sql: "SELECT * FROM revision ORDER BY id").map(LogRevision.init(row:))
            for revision in revisions {
                check("revision \(revision.id)", current: revision.canonical, name: "revision \(revision.id)")
            }
            for reading in try MileageLog.odometerReadings(db) {
                check("odometer \(reading.id)", current: reading.canonical, name: "odometer reading \(reading.id)")
            }
            for row in try Row.fetchAll(db, sql: "SELECT * FROM regular_trip ORDER BY name") {
                let name: String = try row["name"]
                check("regular \(name)", current: (try? RegularTrip(row: row))?.canonical ?? "unreadable",
                      name: "regular trip '\(name)'")
            }
            for row in try Row.fetchAll(db, sql: "SELECT * FROM place ORDER BY id") {
                let id: Int64 = try row["id"]
                check("place \(id)", current: (try? Place(row: row))?.canonical ?? "unreadable", name: "place \(id)")
            }
            for row in try Row.fetchAll(db, sql: "SELECT * FROM rule ORDER BY id") {
                let id: Int64 = try row["id"]
                check("rule \(id)", current: (try? ClassificationRule(row: row))?.canonical ?? "unreadable", name: "rule \(id)")
            }
            let profile = try MileageLog.profile(db).canonical
            if latest["profile 1"] != nil || profile != LogProfile().canonical {
                check("profile 1", current: profile, name: "profile")
            }
            // What the chain holds but the log no longer does (erasures and the format step are no rows).
            for (key, recorded) in latest.sorted(by: { $0.value.seq < $1.value.seq })
            where recorded.payload != Ledger.removed && !key.hasPrefix(Ledger.Subject.erasure.rawValue + " ")
                && !key.hasPrefix(Ledger.Subject.chain.rawValue + " ") {
                problems.append(.init(record: key, detail: "in the chain (record \(recorded.seq)) but missing from the "
                                      + "log: it was removed outside trackd"))
            }
            return VerificationReport(chainRecords: count, trips: trips.count, revisions: revisions.count,
                                      head: previous.isEmpty ? nil : previous, problems: problems, erasures: erasures)
        }
    }
}
