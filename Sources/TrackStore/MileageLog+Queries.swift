import TrackSQLite
import TrackCore

extension MileageLog {
    /// The profile.
    public func profile() async throws(StoreError) -> LogProfile {
        try await read("read the profile") { db in try MileageLog.profile(db) }
    }

    /// The calendar date of `time` in the log's time zone.
    public func localDate(of time: UTCTime) async throws(StoreError) -> CivilDate {
        LocalDates.date(of: time, zone: try await profile().timeZone)
    }

    /// The log's odometer now, metres; `nil` before the first reading.
    public func odometer() async throws(StoreError) -> Double? {
        try await read("read the odometer") { db in try MileageLog.odometer(db) }
    }

    /// The trips whose date lies in `dates` (all trips when `nil`), oldest first, deleted ones included.
    public func trips(dates: (from: CivilDate, until: CivilDate)?, kind: KindFilter = .all) async throws(StoreError) -> [LogTrip] {
        let bounds = dates.map { ($0.from.description, $0.until.description) }
        return try await read("list trips") { db in
            let rows: [Row]
            if let bounds {
                rows = try Row.fetchAll(db, sql: "SELECT * FROM trip WHERE date >= ? AND date < ? ORDER BY id",
                                        arguments: [bounds.0, bounds.1])
            } else {
                rows = try Row.fetchAll(db, sql: "SELECT * FROM trip ORDER BY id")
            }
            return try rows.map(LogTrip.init(row:)).filter { kind.admits($0.kind) }.map { try MileageLog.soFar($0, db) }
        }
    }

    /// The trips of a period counted from `now` in the log's time zone.
    public func trips(period: LogPeriod, kind: KindFilter = .all, now: UTCTime) async throws(StoreError) -> [LogTrip] {
        let zone = try await profile().timeZone
        return try await trips(dates: period.dates(today: LocalDates.date(of: now, zone: zone)), kind: kind)
    }

    /// What a tax office would question in a period's entries (`LogCheck`; this month and all kinds unless told
    /// otherwise): the profile, the entries, the odometer's links from the entry before the period on, and the
    /// changes made to them, on the log's local dates.
    public func check(_ params: TripsParams, now: UTCTime) async throws(StoreError) -> [LogFinding] {
        let entries = try await trips(period: params.period ?? .thisMonth, kind: params.kind ?? .all, now: now)
        let rates = self.rates()
        return try await read("check the log") { db in
            // The changes to these entries (their numbers run from the first to the last).
            let revisions = try entries.first.map { first in
                try Row.fetchAll(db, sql: "SELECT * FROM revision WHERE trip_id BETWEEN ? AND ? ORDER BY id",
                                 arguments: [first.id, entries.last?.id ?? first.id]).map(LogRevision.init(row:))
            } ?? []
            return try MileageLog.findings(in: entries, profile: MileageLog.profile(db), revisions: revisions, rates: rates, db)
        }
    }

    /// `LogCheck`'s findings in `entries`, with the entry before them and the changes among `revisions` made to them.
    static func findings(in entries: [LogTrip], profile: LogProfile, revisions: [LogRevision], rates: RateTable,
                         words: CheckWords? = nil, _ db: Database) throws -> [LogFinding] {
        let before = try entries.first.flatMap { first in
            try Row.fetchOne(db, sql: """
                SELECT * FROM trip WHERE id < ? AND state = 'closed' AND odometer_end IS NOT NULL ORDER BY id DESC LIMIT 1
                """, arguments: [first.id]).map(LogTrip.init(row:))
        }
        let ids = Set(entries.map(\.id))
        let changes = revisions
            .compactMap { revision -> LogCheck.Change? in
                guard let trip = revision.tripID, ids.contains(trip) else { return nil }
                return LogCheck.Change(trip: trip, field: revision.field,
                                       date: LocalDates.date(of: revision.time, zone: profile.timeZone))
            }
        return LogCheck.findings(profile: profile, entries: entries, before: before, changes: changes, rates: rates,
                                 words: words)
    }

    /// The tax years the period touches, with a country in the profile (`nil` and none without one): the allowance
    /// of the business trips dated in `dates` (`nil`: the whole log), worked out over those tax years from the first
    /// one's first day, and each year's summary to the period's end or its own (none for the whole log).
    static func taxYears(dates: (from: CivilDate, until: CivilDate)?, profile: LogProfile, rates: RateTable,
                         _ db: Database) throws -> (allowance: ReportAllowance?, years: [YearSummary]) {
        guard let country = profile.country else { return (nil, []) }
        let through = dates?.until.previous
        let rows: [Row]
        if let dates, let through {
            rows = try Row.fetchAll(db, sql: "SELECT * FROM trip WHERE date >= ? AND date <= ? ORDER BY id",
                                    arguments: [country.taxYear(of: dates.from).description, through.description])
        } else {
            rows = try Row.fetchAll(db, sql: "SELECT * FROM trip WHERE kind = 'business' ORDER BY id")
        }
        let entries = try rows.map(LogTrip.init(row:)).filter { $0.state != .open }
        let allowance = ReportAllowance(MileageAllowance(country: country, entries: entries, rates: rates, ownRate: profile.rate),
                                        from: dates?.from, through: through)
        // A company car: the tax years' distances, and no allowance.
        let paid = profile.paysAllowance
        let years = allowance.taxYears.map { year in
            YearSummary(entries: entries, from: year.from, through: year.through, unit: profile.distanceUnit,
                        amount: paid ? year.total : nil)
        }
        return (paid ? allowance : nil, years)
    }

    /// One trip.
    public func trip(_ id: TripID) async throws(StoreError) -> LogTrip {
        try await read("read trip \(id)") { db in try MileageLog.soFar(MileageLog.trip(id, db), db) }
    }

    /// One trip with its history, events and the size of its track.
    public func tripDetail(_ id: TripID) async throws(StoreError) -> TripDetail {
        try await read("read trip \(id)") { db in
            let trip = try MileageLog.soFar(MileageLog.trip(id, db), db)
            let revisions = try Row.fetchAll(db, sql: "SELECT * FROM revision WHERE trip_id = ? ORDER BY id", arguments: [id])
                .map(LogRevision.init(row:))
            let events = try MileageLog.events(db, tripID: id)
            let counts = try Row.fetchOne(db, sql: """
                SELECT COUNT(*) AS points, COUNT(DISTINCT segment) AS segments FROM track_point WHERE trip_id = ?
                """, arguments: [id])
            return try TripDetail(trip: trip, revisions: revisions, events: events,
                                  trackPoints: counts?["points"] ?? 0, segments: counts?["segments"] ?? 0)
        }
    }

    /// A trip's track: its segments of points, in order.
    public func track(_ tripID: TripID) async throws(StoreError) -> [[TrackPoint]] {
        try await read("read the track of trip \(tripID)") { db in try MileageLog.track(db, tripID: tripID) }
    }

    /// The change history: of some trips, and (when `logDates` is given, or for all when it is `nil` and
    /// `includeLog` holds) the changes to the profile, the odometer and the regular trips.
    public func revisions(tripIDs: [TripID]? = nil) async throws(StoreError) -> [LogRevision] {
        try await read("read the change history") { db in
            let all = try Row.fetchAll(db, sql: "SELECT * FROM revision ORDER BY id").map(LogRevision.init(row:))
            guard let tripIDs else { return all }
            let wanted = Set(tripIDs)
            return all.filter { $0.tripID.map(wanted.contains) ?? false }
        }
    }

    /// Events, newest last; of one trip when `tripID` is given.
    public func events(tripID: TripID? = nil, limit: Int = 1000) async throws(StoreError) -> [LogEvent] {
        try await read("read events") { db in
            if let tripID { return try MileageLog.events(db, tripID: tripID) }
            return try Row.fetchAll(db, sql: "SELECT * FROM (SELECT * FROM event ORDER BY id DESC LIMIT ?) ORDER BY id",
                                    arguments: [limit]).compactMap(LogEvent.init(row:))
        }
    }

    /// The regular trips, by name.
    public func regularTrips() async throws(StoreError) -> [RegularTrip] {
        try await read("read the regular trips") { db in
            try Row.fetchAll(db, sql: "SELECT * FROM regular_trip ORDER BY name").map(RegularTrip.init(row:))
        }
    }

    /// The dashboard readings, oldest first.
    public func odometerReadings() async throws(StoreError) -> [OdometerReading] {
        try await read("read the odometer readings") { db in try MileageLog.odometerReadings(db) }
    }

    /// Every dashboard (and car) reading, oldest first.
    static func odometerReadings(_ db: Database) throws -> [OdometerReading] {
        try Row.fetchAll(db, sql: "SELECT * FROM odometer_reading ORDER BY id").map(OdometerReading.init(row:))
    }

    /// The newest hash of the chain; `nil` for an empty log.
    public func chainHead() async throws(StoreError) -> String? {
        try await read("read the chain") { db in try Ledger.head(db) }
    }

    /// Everything a report of `period` shows, counted from `now` in the log's time zone.
    /// The trips a `trips` request asks for (this month and all kinds when it says nothing).
    public func trips(_ params: TripsParams, now: UTCTime) async throws(StoreError) -> [LogTrip] {
        try await trips(period: params.period ?? .thisMonth, kind: params.kind ?? .all, now: now)
    }

    /// The trips a `trips.overview` request asks for, with which of them a person changed after they were written and
    /// the business trips' amounts (counted over the tax years the period touches, as a report counts them).
    public func tripsOverview(_ params: TripsParams, now: UTCTime) async throws(StoreError) -> TripsOverview {
        let period = params.period ?? .thisMonth
        let entries = try await trips(period: period, kind: params.kind ?? .all, now: now)
        let rates = self.rates()
        return try await read("list trips") { db in
            let profile = try MileageLog.profile(db)
            let revisions = try entries.first.map { first in
                try Row.fetchAll(db, sql: "SELECT * FROM revision WHERE trip_id BETWEEN ? AND ? ORDER BY id",
                                 arguments: [first.id, entries.last?.id ?? first.id]).map(LogRevision.init(row:))
            } ?? []
            let ids = Set(entries.map(\.id))
            let changed = LogRevision.changedEntries(revisions).filter(ids.contains).sorted { $0.rawValue < $1.rawValue }
            let dates = period.dates(today: LocalDates.date(of: now, zone: profile.timeZone))
            let allowance = try MileageLog.taxYears(dates: dates, profile: profile, rates: rates, db).allowance
            return TripsOverview(trips: entries, changed: changed, allowance: allowance)
        }
    }

    /// The report an `export` request asks for (this month and all kinds when it says nothing).
    public func report(_ params: TripsParams, now: UTCTime, generator: String) async throws(StoreError) -> MileageReport {
        try await report(period: params.period ?? .thisMonth, kind: params.kind ?? .all, now: now, generator: generator)
    }

    /// The log's odometer (km), the calibration factor, the dashboard readings and the calibration the car's
    /// odometer proposes.
    public func odometerStatus() async throws(StoreError) -> OdometerStatus {
        try await read("read the odometer") { db in
            let profile = try MileageLog.profile(db)
            var status = OdometerStatus(
                kilometres: try MileageLog.odometer(db).map { $0 / 1000 },
                calibrationFactor: profile.calibrationFactor,
                readings: try MileageLog.odometerReadings(db))
            let trips = try MileageLog.carMeasuredTrips(db)
            switch CalibrationProposal.propose(from: trips) {
            case .success(let proposal): status.proposedCalibration = proposal
            case .failure(let withheld): status.proposalNote = trips.isEmpty ? nil : withheld.description(in: profile.distanceUnit)
            }
            return status
        }
    }

    /// The newest GPS trips whose odometer the car gave at both ends, for the calibration it proposes.
    static func carMeasuredTrips(_ db: Database) throws -> [CalibrationProposal.Trip] {
        try Row.fetchAll(db, sql: """
            SELECT id, odometer_end - odometer_start AS odometer, measured_distance FROM trip
            WHERE state = 'closed' AND source = 'gps' AND odometer_start_source = 'car' AND odometer_end_source = 'car'
                AND measured_distance > 0 AND odometer_end >= odometer_start
            ORDER BY id DESC LIMIT ?
            """, arguments: [CalibrationProposal.maximumTrips]).map { row in
            try CalibrationProposal.Trip(id: TripID(rawValue: row["id"]), odometer: row["odometer"], measured: row["measured_distance"])
        }
    }

    /// Everything a report of `period` shows, counted from `now` in the log's time zone; without the trips' tracks
    /// when `tracks` is false (a CSV needs none, and a month's points are many).
    public func report(period: LogPeriod, kind: KindFilter, now: UTCTime, generator: String,
                       tracks: Bool = true) async throws(StoreError) -> MileageReport {
        let rates = self.rates()
        return try await read("build the report") { db in
            let profile = try MileageLog.profile(db)
            let today = LocalDates.date(of: now, zone: profile.timeZone)
            let dates = period.dates(today: today)
            let rows: [Row]
            if let dates {
                rows = try Row.fetchAll(db, sql: "SELECT * FROM trip WHERE date >= ? AND date < ? ORDER BY id",
                                        arguments: [dates.from.description, dates.until.description])
            } else {
                rows = try Row.fetchAll(db, sql: "SELECT * FROM trip ORDER BY id")
            }
            let trips = try rows.map(LogTrip.init(row:)).filter { kind.admits($0.kind) && $0.state != .open }
            let entries = try trips.map { trip in
                ReportTrip(trip: trip, segments: tracks && trip.source == .gps && trip.state != .deleted
                           ? try MileageLog.track(db, tripID: trip.id) : [])
            }
            let ids = Set(trips.map(\.id))
            let revisions = try Row.fetchAll(db, sql: "SELECT * FROM revision ORDER BY id").map(LogRevision.init(row:))
                .filter { revision in
                    if let trip = revision.tripID { return ids.contains(trip) }
                    guard let dates else { return true }
                    let day = LocalDates.date(of: revision.time, zone: profile.timeZone)
                    return day >= dates.from && day < dates.until
                }
            let taxYears = try MileageLog.taxYears(dates: dates, profile: profile, rates: rates, db)
            return MileageReport(
                profile: profile, period: period.description, periodTitle: period.title(today: today),
                from: dates?.from, until: dates?.until, kind: kind, trips: entries, revisions: revisions,
                chainHead: try Ledger.head(db), generatedAt: now, generator: generator,
                allowance: taxYears.allowance, findings: try MileageLog.findings(in: trips, profile: profile, revisions: revisions, rates: rates,
                                                  // In the report's language, its country's (ReportForm).
                                                  words: .of(profile.country?.language ?? .english), db),
                years: taxYears.years)
        }
    }

    /// One closed trip with its track as a report of its own (the GPX file the daemon keeps of it): the profile, the
    /// trip, its change history and the chain's head. A trip still open, or deleted, comes without its track; so does
    /// any with `track` false (its points then read by `readTrack`, a file written a point at a time).
    public func tripReport(_ id: TripID, now: UTCTime, generator: String,
                           track: Bool = true) async throws(StoreError) -> MileageReport {
        try await read("build the report of trip \(id)") { db in
            let profile = try MileageLog.profile(db)
            let trip = try MileageLog.trip(id, db)
            let segments = track && trip.hasStoredTrack ? try MileageLog.track(db, tripID: id) : []
            let revisions = try Row.fetchAll(db, sql: "SELECT * FROM revision WHERE trip_id = ? ORDER BY id",
                                             arguments: [id]).map(LogRevision.init(row:))
            let title = ["trip \(id)", trip.date?.description].compactMap { $0 }.joined(separator: ", ")
            return MileageReport(
                profile: profile, period: "trip-\(id)", periodTitle: title, from: trip.date, until: trip.date?.next,
                kind: .all, trips: [ReportTrip(trip: trip, segments: segments)], revisions: revisions,
                chainHead: try Ledger.head(db), generatedAt: now, generator: generator)
        }
    }

    // MARK: - Shared pieces

    /// A running GPS trip as far as the log has it: its distance up to its last stored point (the engine's measured
    /// distance, which each point carries, calibrated by the one formula; for a trip without a route, the progress
    /// its row notes) and the odometer there. The row itself
    /// gets its distance when the trip closes; other trips are returned as they are.
    static func soFar(_ trip: LogTrip, _ db: Database) throws -> LogTrip {
        guard trip.state == .open, trip.source == .gps else { return trip }
        var measured = trip.measuredDistance ?? 0
        if trip.route.isKept {
            let centimetres = try Int64.fetchOne(db, sql: """
                SELECT distance_cm FROM track_point WHERE trip_id = ? ORDER BY seq DESC LIMIT 1
                """, arguments: [trip.id]) ?? 0
            measured = Double(centimetres) / 100
        }
        var running = trip
        running.measuredDistance = measured
        running.distance = Trip.loggedDistance(measured: measured, calibrationFactor: trip.calibrationFactor)
        running.odometerEnd = trip.odometerStart.map { $0 + running.distance }
        return running
    }

    static func track(_ db: Database, tripID: TripID) throws -> [[TrackPoint]] {
        var segments: [[TrackPoint]] = []
        var current: Int?
        try TrackPointReader(db: db, tripID: tripID).forEach { recorded in
            if recorded.segment != current {
                segments.append([])
                current = recorded.segment
            }
            segments[segments.count - 1].append(recorded.point)
        }
        return segments
    }

    /// Runs `body` on a reader of trip `id`'s track inside one read of the log (one consistent snapshot), so that a
    /// file of the whole track can be written a point at a time, in memory that does not grow with the trip.
    public func readTrack<T: Sendable>(_ id: TripID,
                                       _ body: @escaping @Sendable (TrackPointReader) throws -> T) async throws(StoreError) -> T {
        try await read("read the track of trip \(id)") { db in try body(TrackPointReader(db: db, tripID: id)) }
    }

    static func events(_ db: Database, tripID: TripID) throws -> [LogEvent] {
        try Row.fetchAll(db, sql: "SELECT * FROM event WHERE trip_id = ? ORDER BY id", arguments: [tripID])
            .compactMap(LogEvent.init(row:))
    }
}

extension LogEvent {
    /// An event from its row; `nil` for a kind this version does not know.
    init?(row: Row) throws {
        guard let kind = Kind(rawValue: try row["kind"]) else { return nil }
        try self.init(id: row["id"], kind: kind, time: (row["time"] as String?).flatMap { UTCTime(iso8601: $0) },
                      tripID: row["trip_id"], detail: row["detail"])
    }
}
