import TrackSQLite
import TrackCore

extension MileageLog {
    /// Opens a GPS trip: the row, its start odometer (the car's reading when one is given, else the log's odometer
    /// now, with where it came from) and the calibration factor in force, committed durably with its chain record
    /// before this returns. A trip opened with its route `withheld` (a private trip in privacy mode) never stores a
    /// point or a position: its points only carry its progress.
    ///
    /// A car's reading that differs from the log's odometer is first recorded as an odometer reading
    /// (`setOdometer`), which makes the difference a visible entry; this only opens the trip with it.
    public func beginTrip(kind: TripKind, purpose: String?, customer: String?, destination: String? = nil,
                          route: TripRoute = .recorded, carOdometer: Double? = nil,
                          commute: Bool = false) async throws(StoreError) -> LogTrip {
        try await write("open a trip") { db in
            if let open = try Int64.fetchOne(db, sql: "SELECT id FROM trip WHERE state = 'open' LIMIT 1") {
                throw StoreError.invalid("trip \(open) is still open; stop it first")
            }
            let profile = try MileageLog.profile(db)
            let logOdometer = try MileageLog.odometerWithSource(db)
            var trip = LogTrip(id: 0, kind: kind, purpose: purpose?.nilIfBlank, customer: customer?.nilIfBlank,
                               destination: destination?.nilIfBlank, source: .gps, state: .open, odometerStart: carOdometer ?? logOdometer?.value,
                               distance: 0, measuredDistance: 0, calibrationFactor: profile.calibrationFactor,
                               route: route, commute: commute && kind == .private)
            trip.odometerStartSource = carOdometer != nil ? .car : logOdometer?.source
            trip.id = try MileageLog.insert(trip, db)
            try Ledger.append(db, .trip, ref: trip.id.description, payload: trip.canonical(trackDigest: nil, points: nil))
            return trip
        }
    }

    /// Appends a batch of track points to an open trip in one transaction. The first batch also fixes the trip's
    /// start (time, place, local date). A trip carried on after a power cut passes its `resumption` with the first
    /// batch after it: the outage and the `resumed` event are committed with points that move the trip's last
    /// stored point past the cut, or not at all, so that a second cut before them cannot leave the same stretch
    /// counted as two outages (the next start decides again from the same last point). The trip's `ends`, when they
    /// moved, go in the same transaction (`noteEnds`): one commit, one sync of the card.
    public func appendPoints(_ points: [RecordedPoint], to tripID: TripID, resuming resumption: Resumption? = nil,
                             ends: TripEnds? = nil) async throws(StoreError) {
        guard !points.isEmpty else {
            if let ends { try await noteEnds(ends, tripID: tripID) }
            return
        }
        try await write("store track points") { db in
            // A trip closed meanwhile (by another trackd on the same folder, say) keeps its track as it was closed.
            let row = try Row.fetchOne(db, sql: "SELECT state, route FROM trip WHERE id = ?", arguments: [tripID])
            let state: String? = try row?["state"]
            guard state == "open" else {
                throw state == nil ? StoreError.unknownTrip(tripID)
                    : StoreError.invalid("trip \(tripID) is \(state ?? "") in the log; its track takes no more points")
            }
            if let resumption { try MileageLog.insertResumption(resumption, tripID: tripID, db) }
            if try row?["route"] == TripRoute.recorded.rawValue {
                try MileageLog.insertPoints(points, tripID: tripID, db)
            } else {
                try MileageLog.noteProgress(points, tripID: tripID, db)
            }
            if let ends { try MileageLog.noteEnds(ends, tripID: tripID, db) }
        }
    }

    /// Keeps where an open trip starts and ends as the engine's means of the stops settle (`nil`: unchanged). A trip
    /// that keeps no route stores no position, and a closed one keeps what its close wrote.
    public func noteEnds(_ ends: TripEnds, tripID: TripID) async throws(StoreError) {
        try await write("note where the trip starts and ends") { db in
            try MileageLog.noteEnds(ends, tripID: tripID, db)
        }
    }

    /// Notes an outage on an open trip: the running totals on the trip and an event.
    public func recordGap(_ gap: GapReport, tripID: TripID) async throws(StoreError) {
        try await write("record an outage") { db in
            try MileageLog.insertGap(gap, tripID: tripID, db)
        }
    }

    /// Notes an idle alert: the count on the trip and an event.
    public func recordIdleAlert(_ alert: IdleAlert, tripID: TripID?) async throws(StoreError) {
        try await write("record an idle alert") { db in
            if let tripID {
                try db.execute(sql: "UPDATE trip SET idle_alerts = idle_alerts + 1 WHERE id = ? AND state = 'open'",
                               arguments: [tripID])
            }
            try MileageLog.insertEvent(.idleAlert, time: alert.time, tripID: tripID,
                                       detail: "stationary since \(alert.stationarySince.iso8601(fractionDigits: 0))", db)
        }
    }

    /// Records an event.
    public func recordEvent(_ kind: LogEvent.Kind, time: UTCTime?, tripID: TripID?, detail: String) async throws(StoreError) {
        try await write("record an event") { db in
            try MileageLog.insertEvent(kind, time: time, tripID: tripID, detail: detail, db)
        }
    }

    /// Closes an open trip with what the engine measured: distance calibrated with the trip's factor, the odometer at
    /// the end, the outage totals kept while it ran, and a digest of its track in the chain record.
    /// A trip carried on after a power cut and closed before any point after the cut was stored passes its
    /// `resumption`, committed with the close. A trip that closes unclassified is classified by the first rule that
    /// holds (docs/rules.md), in the same transaction; with `erasingPrivateRoutes` (privacy mode), one a rule makes
    /// private loses its route there too.
    @discardableResult
    public func closeTrip(_ id: TripID, _ summary: TripSummary, resuming resumption: Resumption? = nil,
                          erasingPrivateRoutes: Bool = false) async throws(StoreError) -> LogTrip {
        let (closed, erased) = try await write("close trip \(id)") { db -> (LogTrip, Bool) in
            if let resumption { try MileageLog.insertResumption(resumption, tripID: id, db) }
            var trip = try MileageLog.trip(id, db)
            guard trip.state == .open else { throw StoreError.invalid("trip \(id) is not open") }
            let zone = try MileageLog.profile(db).timeZone
            trip.state = .closed
            // The engine's start is the first usable fix; the first stored point may come a little later (a
            // position still settling), so the earlier of the two is the trip's start.
            if let start = summary.start, start < (trip.start ?? start) || trip.start == nil {
                trip.start = start
                trip.date = LocalDates.date(of: start, zone: zone)
            }
            if trip.route.isKept {
                // The engine's start is the spot of the stop the trip started in; the row has the first point.
                trip.startPosition = summary.startPosition ?? trip.startPosition
                trip.endPosition = summary.endPosition ?? trip.startPosition
                // The named places that hold them (a trip without its route gets none: privacy wins).
                let places = try MileageLog.places(db)
                func place(at position: Coordinate?) -> TripPlace? {
                    position.flatMap { Place.containing($0, among: places)?.tripPlace }
                }
                if trip.startPlace == nil { trip.startPlace = place(at: trip.startPosition) }
                if trip.endPlace == nil { trip.endPlace = place(at: trip.endPosition) }
            }
            trip.end = summary.end ?? trip.start
            if trip.date == nil, let day = trip.start ?? summary.closedAt { trip.date = LocalDates.date(of: day, zone: zone) }
            if let purpose = summary.purpose?.nilIfBlank { trip.purpose = purpose }
            if let customer = summary.customer?.nilIfBlank { trip.customer = customer }
            trip.measuredDistance = summary.measuredDistance
            trip.distance = Trip.loggedDistance(measured: summary.measuredDistance, calibrationFactor: trip.calibrationFactor)
            // The car's reading, unless it is below the start (another car's adapter, an odometer replaced) or, for
            // a trip that did not start at the car's reading, tells a start the trip's kilometres do not reach: the
            // kilometres driven without trackd are not the trip's (the car's reading then makes them an entry at the
            // next start).
            if let car = summary.carOdometer, car >= (trip.odometerStart ?? 0),
               trip.odometerStartSource == .car || Self.carEndAgrees(car, start: trip.odometerStart, distance: trip.distance) {
                trip.odometerEnd = car
                trip.odometerEndSource = .car
            } else {
                trip.odometerEnd = trip.odometerStart.map { $0 + trip.distance }
                trip.odometerEndSource = trip.odometerStart == nil ? nil : .gps
            }
            trip.endReason = summary.endReason
            let classified = try MileageLog.applyRules(to: &trip, zone: zone, db)
            try MileageLog.update(trip, db)
            let track = try Ledger.trackDigest(db, tripID: id)
            try Ledger.append(db, .trip, ref: id.description, payload: trip.canonical(trackDigest: track.digest, points: track.points))
            guard let rule = trip.rule, !classified.isEmpty else { return (trip, false) }
            // The rule's changes in the trip's history, by trackd at the trip's end (GPS time).
            let reason = "by rule \(rule.id.map { "\($0)" } ?? ""): \(rule.text)"
            let context = ChangeContext(user: "trackd", time: trip.end ?? summary.closedAt ?? UTCTime(nanosecondsSinceEpoch: 0),
                                        timeSource: trip.end == nil ? "system" : "gps")
            for (field, old, new) in classified {
                try MileageLog.addRevision(tripID: id, subject: "trip", field: field, old: old, new: new, reason: reason,
                                           context: context, db)
            }
            guard erasingPrivateRoutes && trip.kind == .private && trip.route.isKept else { return (trip, false) }
            try MileageLog.eraseRoute(of: id, reason: reason, context: context, db)
            return (try MileageLog.trip(id, db), true)
        }
        if erased { _ = try await scrub(vacuum: false) }
        return closed
    }

    /// The trip left open by a power cut (or a crash), with its first and last stored points.
    public func openTrip() async throws(StoreError) -> OpenTrip? {
        try await read("look for an open trip") { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM trip WHERE state = 'open' ORDER BY id LIMIT 1") else {
                return nil
            }
            let trip = try LogTrip(row: row)
            let first = try Row.fetchOne(db, sql: "SELECT * FROM track_point WHERE trip_id = ? ORDER BY seq LIMIT 1",
                                         arguments: [trip.id]).map(StoredPoint.init(row:))
            let last = try MileageLog.lastPoint(of: trip.id, db)
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM track_point WHERE trip_id = ?",
                                         arguments: [trip.id]) ?? 0
            return OpenTrip(trip: trip, first: first?.recorded, last: last?.recorded, points: count)
        }
    }

    // MARK: - Shared pieces

    /// The last point stored of a trip, if any.
    static func lastPoint(of tripID: TripID, _ db: Database) throws -> StoredPoint? {
        try Row.fetchOne(db, sql: "SELECT * FROM track_point WHERE trip_id = ? ORDER BY seq DESC LIMIT 1",
                         arguments: [tripID]).map(StoredPoint.init(row:))
    }

    /// Whether the car's odometer at a trip's end agrees with a start the car did not give and the trip's calibrated
    /// distance: within 100 m and 2 % of it (a calibration off by a little, the car's 100 m steps).
    static func carEndAgrees(_ car: Double, start: Double?, distance: Double) -> Bool {
        guard let start else { return true }
        return abs(car - (start + distance)) <= 100 + 0.02 * distance
    }

    static func noteEnds(_ ends: TripEnds, tripID: TripID, _ db: Database) throws {
        try db.execute(sql: """
            UPDATE trip SET start_lat = COALESCE(?, start_lat), start_lon = COALESCE(?, start_lon),
                end_lat = COALESCE(?, end_lat), end_lon = COALESCE(?, end_lon)
            WHERE id = ? AND state = 'open' AND route = ?
            """, arguments: [ends.start?.latitude, ends.start?.longitude, ends.end?.latitude, ends.end?.longitude,
                             tripID, TripRoute.recorded.rawValue])
    }

    static func insertPoints(_ points: [RecordedPoint], tripID: TripID, _ db: Database) throws {
        guard let first = points.first else { return }
        let next = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(seq), -1) + 1 FROM track_point WHERE trip_id = ?",
                                      arguments: [tripID]) ?? 0
        let statement = try db.cachedStatement(sql: """
            INSERT INTO track_point (trip_id, seq, time_ms, lat_e7, lon_e7, speed_cms, error_cm, distance_cm, segment)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (offset, recorded) in points.enumerated() {
            let stored = StoredPoint(recorded)
            try statement.execute(arguments: [tripID, next + Int64(offset), stored.timeMilliseconds,
                                              stored.latitudeE7, stored.longitudeE7, stored.speedCentimetres,
                                              stored.errorCentimetres, stored.distanceCentimetres, stored.segment])
        }
        if next == 0 {
            let zone = try MileageLog.profile(db).timeZone
            try db.execute(sql: """
                UPDATE trip SET start_time = COALESCE(start_time, ?), start_lat = COALESCE(start_lat, ?),
                    start_lon = COALESCE(start_lon, ?), date = COALESCE(date, ?)
                WHERE id = ? AND state = 'open'
                """, arguments: [first.point.time.iso8601(fractionDigits: 3), first.point.coordinate.latitude,
                                 first.point.coordinate.longitude,
                                 LocalDates.date(of: first.point.time, zone: zone).description, tripID])
        }
    }

    /// A trip that keeps no route stores no point: its row notes how far it has come (`end_time` and
    /// `measured_distance`, which the chain covers only once it closes), for `trips` while it runs and for the close
    /// after a power cut. The first batch also fixes the trip's start time and local date.
    static func noteProgress(_ points: [RecordedPoint], tripID: TripID, _ db: Database) throws {
        guard let first = points.first, let last = points.last else { return }
        let zone = try MileageLog.profile(db).timeZone
        try db.execute(sql: """
            UPDATE trip SET start_time = COALESCE(start_time, ?), date = COALESCE(date, ?), end_time = ?,
                measured_distance = ?
            WHERE id = ? AND state = 'open'
            """, arguments: [first.point.time.iso8601(fractionDigits: 3),
                             LocalDates.date(of: first.point.time, zone: zone).description,
                             last.point.time.iso8601(fractionDigits: 3), last.point.distance, tripID])
    }

    static func insertResumption(_ resumption: Resumption, tripID: TripID, _ db: Database) throws {
        try insertGap(resumption.gap, tripID: tripID, db)
        try insertEvent(.resumed, time: resumption.time, tripID: tripID, detail: resumption.detail, db)
    }

    static func insertGap(_ gap: GapReport, tripID: TripID, _ db: Database) throws {
        try db.execute(sql: """
            UPDATE trip SET gap_count = gap_count + 1, bridged_seconds = bridged_seconds + ?,
                bridged_distance = bridged_distance + ?
            WHERE id = ? AND state = 'open'
            """, arguments: [gap.isBridged ? gap.duration : 0, gap.distance, tripID])
        try MileageLog.insertEvent(.gap, time: gap.start, tripID: tripID,
                                   detail: (gap.beforeFirstFix
                                       ? "drive before the first fix, from where the car was parked, "
                                           + "\(Int(gap.duration.rounded())) s from power-on: "
                                       : "outage of \(Int(gap.duration.rounded())) s: ")
                                       + "\(gap.outcome.rawValue), \(Int(gap.distance.rounded())) m added"
                                       + (gap.note.map { " (\($0))" } ?? ""),
                                   db)
    }

    static func profile(_ db: Database) throws -> LogProfile {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM profile WHERE id = 1") else {
            throw StoreError.invalid("the log has no profile row; it was not made by trackd")
        }
        return try LogProfile(row: row)
    }

    static func trip(_ id: TripID, _ db: Database) throws -> LogTrip {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM trip WHERE id = ?", arguments: [id]) else {
            throw StoreError.unknownTrip(id)
        }
        return try LogTrip(row: row)
    }

    /// The log's odometer now: the end of the newest entry that counts, else the last dashboard reading (the first
    /// reading sets the base); `nil` before any reading.
    static func odometer(_ db: Database) throws -> Double? {
        try odometerWithSource(db)?.value
    }

    /// The log's odometer now and where that number came from: the newest entry that counts gives its end and that
    /// end's source (an entry a dashboard reading made: `dashboard`; an entry from before sources were recorded:
    /// `gps` for a GPS trip, `dashboard` otherwise); before any entry, the last dashboard reading.
    static func odometerWithSource(_ db: Database) throws -> (value: Double, source: OdometerSource)? {
        if let row = try Row.fetchOne(db, sql: """
            SELECT odometer_end, odometer_end_source, source FROM trip
            WHERE state = 'closed' AND odometer_end IS NOT NULL ORDER BY id DESC LIMIT 1
            """), let end: Double = try row["odometer_end"] {
            let recorded = try (row["odometer_end_source"] as String?).flatMap(OdometerSource.init(rawValue:))
            let entry: String = try row["source"]
            return (end, recorded ?? (entry == TripSource.gps.rawValue ? .gps : .dashboard))
        }
        return try Double.fetchOne(db, sql: "SELECT value FROM odometer_reading ORDER BY id DESC LIMIT 1").map { ($0, .dashboard) }
    }

    @discardableResult
    static func insert(_ trip: LogTrip, _ db: Database) throws -> TripID {
        let columns = trip.columns
        let names = columns.keys.sorted()
        try db.execute(sql: "INSERT INTO trip (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
                       arguments: StatementArguments(names.map { columns[$0]! }))
        return TripID(db.lastInsertedRowID)
    }

    static func update(_ trip: LogTrip, _ db: Database) throws {
        let columns = trip.columns
        let names = columns.keys.sorted()
        try db.execute(sql: "UPDATE trip SET \(names.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?",
                       arguments: StatementArguments(names.map { columns[$0]! } + [trip.id]))
    }

    static func insertEvent(_ kind: LogEvent.Kind, time: UTCTime?, tripID: TripID?, detail: String, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO event (kind, time, trip_id, detail) VALUES (?, ?, ?, ?)",
                       arguments: [kind.rawValue, time?.iso8601(fractionDigits: 3), tripID, detail])
    }
}

extension String {
    /// `nil` for an empty or all-blank string.
    var nilIfBlank: String? {
        allSatisfy(\.isWhitespace) ? nil : self
    }
}
