import TrackSQLite
import TrackCore

/// The record of copies to USB sticks: one append-only row per copy (docs/install.md, "Taking the logs home").
extension MileageLog {
    /// Records a copy of the reports to a stick; gives the row back with its number. Refuses negative counts and
    /// texts of more than one line or 200 characters (a label is at most 16).
    @discardableResult
    public func recordStickCopy(_ copy: StickCopy) async throws(StoreError) -> StickCopy {
        guard copy.written >= 0, copy.unchanged >= 0, copy.removed >= 0 else {
            throw .invalid("a copy to a stick counts its files from 0 up")
        }
        for (name, text) in [("label", copy.label), ("filesystem", copy.filesystem), ("folder", copy.folder),
                             ("chain_head", copy.chainHead), ("problem", copy.problem ?? "")]
        where text.count > 200 || text.contains(where: \.isNewline) {
            throw .invalid("a copy to a stick's \(name) is one line of at most 200 characters")
        }
        return try await write("record a copy to a USB stick") { db in
            try db.execute(sql: """
                INSERT INTO stick_copy (time, label, filesystem, folder, written, unchanged, removed, chain_head, problem)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [copy.time.iso8601(fractionDigits: 3), copy.label, copy.filesystem, copy.folder,
                                 copy.written, copy.unchanged, copy.removed, copy.chainHead, copy.problem])
            var recorded = copy
            recorded.id = db.lastInsertedRowID
            return recorded
        }
    }

    /// The newest copy to a stick, if there was one.
    public func lastStickCopy() async throws(StoreError) -> StickCopy? {
        try await read("read the copies to USB sticks") { db in
            try Row.fetchOne(db, sql: "SELECT * FROM stick_copy ORDER BY id DESC LIMIT 1").map(MileageLog.stickCopy)
        }
    }

    /// A row of `stick_copy`.
    static func stickCopy(_ row: Row) throws -> StickCopy {
        let time: String = try row["time"]
        return try StickCopy(id: row["id"], time: UTCTime(iso8601: time) ?? UTCTime(nanosecondsSinceEpoch: 0), label: row["label"], filesystem: row["filesystem"],
                             folder: row["folder"], written: row["written"], unchanged: row["unchanged"],
                             removed: row["removed"], chainHead: row["chain_head"], problem: row["problem"])
    }
}
