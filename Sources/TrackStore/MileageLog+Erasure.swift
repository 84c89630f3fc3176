#if canImport(Glibc)
import Glibc
#endif
import TrackSQLite
import TrackCore

/// Erasure: routes, the names in the profile, or everything. Each is one transaction that also appends an erasure
/// record to the hash chain (what, when, who, why, and the digests of what went), so a power cut leaves the log as
/// it was or as it is after; then the bytes are scrubbed from the file and its WAL (`scrub`). SQLite's
/// `secure_delete` is on for the log, so what a transaction deletes is overwritten with zeros, not just unlinked.
extension MileageLog {
    /// Carries out (or, for a dry run, only counts) the erasure `params` asks for. Business trips inside the
    /// `retention` period are never erased with the log unless `params.ignoreRetention` says so.
    public func erase(_ params: EraseParams, retention: RetentionPolicy,
                      context: ChangeContext) async throws(StoreError) -> LogErasure {
        if params.target != .routes, params.before != nil || params.privateOnly {
            throw .invalid("--before and --private-only choose routes; they do not go with --\(params.target)")
        }
        // A dry run counts in a read, the erasure itself is one transaction.
        let body: @Sendable (Database) throws -> LogErasure = { db in
            var erasure = LogErasure(target: params.target, scope: params.scope, time: context.time,
                                     timeSource: context.timeSource, user: context.user,
                                     reason: params.reason?.nilIfBlank, done: !params.dryRun)
            let found: Bool
            switch params.target {
            case .routes:
                found = try MileageLog.eraseRoutes(MileageLog.tripsWithRoutes(params, db), into: &erasure, db)
            case .profile:
                found = try MileageLog.eraseProfile(into: &erasure, db)
            case .all:
                let today = LocalDates.date(of: context.time, zone: try MileageLog.profile(db).timeZone)
                found = try MileageLog.eraseAll(retention: params.ignoreRetention ? nil : retention, today: today,
                                                into: &erasure, db)
            }
            if !found {
                erasure.done = false
                erasure.notes.append("nothing to erase: the log holds none of \(params.scope)")
            }
            return erasure
        }
        var erasure = params.dryRun ? try await read("count \(params.scope)", body)
            : try await write("erase \(params.scope)", body)
        if erasure.done {
            erasure.notes += try await scrub(vacuum: params.target == .all)
        }
        return erasure
    }

    /// Erases the route of one trip (a trip reclassified private), in the transaction of the change that asks for it.
    static func eraseRoute(of id: TripID, reason: String, context: ChangeContext, _ db: Database) throws {
        var erasure = LogErasure(target: .routes, scope: "route of trip \(id), now private", time: context.time,
                                 timeSource: context.timeSource, user: context.user, reason: reason, done: true)
        _ = try eraseRoutes([id], into: &erasure, db)
    }

    /// Overwrites what the last erasure left in the file's free space and in the WAL: a checkpoint that empties
    /// and truncates the WAL, and for `vacuum` a rebuild of the whole file. Returns notes on what could not be done.
    func scrub(vacuum: Bool) async throws(StoreError) -> [String] {
        do {
            return try await writer.writeWithoutTransaction { db -> [String] in
                if vacuum { try db.execute(sql: "VACUUM") }
                // Readers that still see the old state keep the WAL from being emptied; they finish within moments.
                for _ in 0..<50 {
                    let result = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                    if try result?[0] as Int? == 0 { return [] }
                    usleep(100_000)
                }
                return ["the WAL could not be emptied yet (a reader held it); it is emptied at the next start"]
            }
        } catch {
            throw MileageLog.wrap(error, path: path, operation: "scrub the erased data from the file")
        }
    }

    // MARK: - Routes

    /// The trips whose routes `params` names: GPS trips that still keep a route, dated before `before`, private.
    static func tripsWithRoutes(_ params: EraseParams, _ db: Database) throws -> [TripID] {
        var sql = "SELECT id FROM trip WHERE source = 'gps' AND route = 'recorded'"
        var arguments: StatementArguments = []
        if let before = params.before {
            sql += " AND date < ?"
            arguments += [before.description]
        }
        if params.privateOnly { sql += " AND kind = 'private'" }
        return try TripID.fetchAll(db, sql: sql + " ORDER BY id", arguments: arguments)
    }

    /// Takes the track points and positions of `trips`, appends each trip's new state, erases the texts of its
    /// earlier records (they held its positions), and appends the erasure's record naming them. Returns whether
    /// any of them had a route.
    static func eraseRoutes(_ trips: [TripID], into erasure: inout LogErasure, _ db: Database) throws -> Bool {
        var tracks: [LogErasure.ErasedTrack] = []
        var erasedRecords: [Int64] = []
        for id in trips {
            var trip = try MileageLog.trip(id, db)
            guard trip.route.isKept else { continue }
            let track = try Ledger.trackDigest(db, tripID: id)
            erasure.trips.append(id)
            erasure.trackPoints += track.points
            guard erasure.done else { continue }
            tracks.append(.init(trip: id, points: track.points, sha256: track.digest))
            // A running trip goes on without its route: its row notes its progress from here.
            if trip.state == .open {
                let last = try Row.fetchOne(db, sql: "SELECT * FROM track_point WHERE trip_id = ? ORDER BY seq DESC LIMIT 1",
                                            arguments: [id]).map { try StoredPoint(row: $0).recorded.point }
                trip.end = last?.time
                trip.measuredDistance = last?.distance ?? 0
            }
            trip.route = .erased
            trip.startPosition = nil
            trip.endPosition = nil
            try db.execute(sql: "DELETE FROM track_point WHERE trip_id = ?", arguments: [id])
            try MileageLog.update(trip, db)
            let seq = try appendTripRecord(trip, db)
            erasedRecords += try Ledger.eraseRecords(db, .trip, ref: id.description, before: seq)
        }
        erasure.chainRecords = erasedRecords.count
        guard erasure.done, !erasure.trips.isEmpty else { return !erasure.trips.isEmpty }
        erasure.chainRecord = try Ledger.append(db, .erasure, ref: String(try nextErasure(db)),
                                                payload: erasure.canonical(erasedRecords: erasedRecords, tracks: tracks))
        return true
    }

    // MARK: - The profile

    /// The profile fields that name a person (or, as a plate or a VIN does, lead to one).
    static let personalProfileFields = ["driver", "plate", "company", "vin"]

    /// Empties the driver, plate, company and VIN, erases their values from the change history and the texts of the
    /// chain records that held them. Returns whether anything named a person.
    static func eraseProfile(into erasure: inout LogErasure, _ db: Database) throws -> Bool {
        let fields = personalProfileFields.map { "'\($0)'" }.joined(separator: ", ")
        let revisions = try Row.fetchAll(db, sql: """
            SELECT * FROM revision WHERE subject = 'profile' AND field IN (\(fields)) AND erased = 0
                AND (old_value IS NOT NULL OR new_value IS NOT NULL) ORDER BY id
            """).map(LogRevision.init(row:))
        var profile = try MileageLog.profile(db)
        let named = profile.driver != nil || profile.plate != nil || profile.company != nil || profile.vin != nil
        erasure.revisions = revisions.count
        guard named || !revisions.isEmpty else { return false }
        guard erasure.done else { return true }
        var erasedRecords: [Int64] = []
        for var revision in revisions {
            revision.oldValue = nil
            revision.newValue = nil
            revision.valuesErased = true
            try db.execute(sql: "UPDATE revision SET old_value = NULL, new_value = NULL, erased = 1 WHERE id = ?",
                           arguments: [revision.id])
            let seq = try Ledger.append(db, .revision, ref: String(revision.id), payload: revision.canonical)
            erasedRecords += try Ledger.eraseRecords(db, .revision, ref: String(revision.id), before: seq)
        }
        profile.driver = nil
        profile.plate = nil
        profile.company = nil
        profile.vin = nil
        try db.execute(sql: "UPDATE profile SET driver = NULL, plate = NULL, company = NULL, vin = NULL WHERE id = 1")
        let seq = try Ledger.append(db, .profile, ref: "1", payload: profile.canonical)
        erasedRecords += try Ledger.eraseRecords(db, .profile, ref: "1", before: seq)
        erasure.chainRecords = erasedRecords.count
        erasure.chainRecord = try Ledger.append(db, .erasure, ref: String(try nextErasure(db)),
                                                payload: erasure.canonical(erasedRecords: erasedRecords, tracks: []))
        return true
    }

    // MARK: - Everything

    /// Empties every table, as after installation, unless business trips inside `retention` would go; the new
    /// chain begins with the erasure's record (how much went, who, when, why). Returns whether the log held
    /// anything (every change to it leaves a chain record).
    static func eraseAll(retention: RetentionPolicy?, today: CivilDate, into erasure: inout LogErasure,
                         _ db: Database) throws -> Bool {
        if let retention {
            let kept = try Row.fetchAll(db, sql: """
                SELECT id, date FROM trip WHERE kind = 'business' AND state != 'deleted' AND date IS NOT NULL
                ORDER BY date DESC, id DESC
                """).compactMap { row -> (TripID, CivilDate)? in
                    guard let date = CivilDate(iso8601: try row["date"] as String) else { return nil }
                    return retention.covers(date, today: today) ? (try row["id"], date) : nil
                }
            if let (trip, date) = kept.first {
                throw StoreError.retained(trip: trip, date: date, count: kept.count, until: retention.keptUntil(date),
                                          years: retention.years)
            }
        }
        let trips = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM trip") ?? 0
        erasure.trackPoints = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM track_point") ?? 0
        erasure.revisions = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM revision") ?? 0
        erasure.chainRecords = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ledger") ?? 0
        erasure.scope = "every trip (\(trips)), track, reading, regular trip, place, rule, the profile and the history"
        guard erasure.chainRecords > 0 || trips > 0 else { return false }
        guard erasure.done else { return true }
        // The guards against changes by hand stand in the way of emptying the log: they are taken down and put
        // back, as they were, in the same transaction.
        let triggers = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        for trigger in triggers { try db.execute(sql: "DROP TRIGGER \((trigger["name"] as String).quotedDatabaseIdentifier)") }
        for table in ["track_point", "event", "revision", "odometer_reading", "regular_trip", "place", "rule", "trip",
                      "ledger", "stick_copy"] {
            try db.execute(sql: "DELETE FROM \(table)")
        }
        try db.execute(sql: "DELETE FROM sqlite_sequence")
        let fresh = LogProfile()
        try db.execute(sql: """
            UPDATE profile SET driver = NULL, plate = NULL, company = NULL, vin = NULL, country = NULL, unit = NULL, rate = NULL, car = NULL,
                time_zone = ?, calibration_factor = ?
            WHERE id = 1
            """, arguments: [fresh.timeZone, fresh.calibrationFactor])
        for trigger in triggers { try db.execute(sql: trigger["sql"]) }
        erasure.chainRecord = try Ledger.append(db, .erasure, ref: "1",
                                                payload: erasure.canonical(erasedRecords: [], tracks: []))
        return true
    }

    /// The number of the next erasure.
    private static func nextErasure(_ db: Database) throws -> Int {
        (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ledger WHERE subject = 'erasure'") ?? 0) + 1
    }
}
