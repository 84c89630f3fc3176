import TrackSQLite
import TrackCore

extension MileageLog {
    /// The earliest date of a trip entered by hand: well inside what the log's clock holds, and before any car this
    /// log could be kept for.
    public static let earliestDate = CivilDate(year: 1970, month: 1, day: 1)!

    /// Adds a trip entered by hand (or from a regular trip) at the end of the log; its start odometer follows the log.
    public func addTrip(_ manual: ManualTrip, context: ChangeContext) async throws(StoreError) -> LogTrip {
        try await write("add a trip") { db in
            if let open = try Int64.fetchOne(db, sql: "SELECT id FROM trip WHERE state = 'open' LIMIT 1") {
                throw StoreError.invalid("trip \(open) is being recorded; stop it before adding a trip by hand")
            }
            var template: RegularTrip?
            if let name = manual.regular {
                guard let row = try Row.fetchOne(db, sql: "SELECT * FROM regular_trip WHERE name = ?", arguments: [name]) else {
                    let known = try String.fetchAll(db, sql: "SELECT name FROM regular_trip ORDER BY name")
                    throw StoreError.invalid("there is no regular trip '\(name)'"
                        + (known.isEmpty ? " (none are defined: trackctl regular add)" : "; known: \(known.joined(separator: ", "))"))
                }
                template = try RegularTrip(row: row)
            }
            let kind = manual.kind ?? (manual.commute ? .private : nil) ?? template?.kind ?? .unclassified
            if manual.commute && kind != .private {
                throw StoreError.invalid(MileageLog.commuteIsPrivate)
            }
            let purpose = manual.purpose?.nilIfBlank ?? template?.purpose
            if kind == .business && purpose == nil {
                throw StoreError.invalid("a business trip needs a purpose: add --purpose TEXT")
            }
            let profile = try MileageLog.profile(db)
            let today = LocalDates.date(of: context.time, zone: profile.timeZone)
            // Found by the control fuzzer: an empty log set no lower bound, and a time on 1013-11-22 overflowed the
            // nanosecond clock (UTCTime holds 1678 to 2262) and stopped trackd.
            guard manual.date >= MileageLog.earliestDate else {
                throw StoreError.invalid("\(manual.date) is before \(MileageLog.earliestDate), the earliest date a trip can have")
            }
            if manual.date > today {
                throw StoreError.invalid("\(manual.date) is in the future (today is \(today) by \(context.timeSource) time); "
                    + "a trip is entered once it has been driven")
            }
            if let last = try Row.fetchOne(db, sql: "SELECT id, date FROM trip WHERE date IS NOT NULL ORDER BY id DESC LIMIT 1"),
               let lastDate = (try last["date"] as String?).flatMap({ CivilDate(iso8601: $0) }), manual.date < lastDate {
                throw StoreError.invalid("the log is kept in order: its last entry (trip \(try last["id"] as Int64)) is dated "
                    + "\(lastDate), so a trip dated \(manual.date) cannot follow it; date it \(lastDate) or later")
            }
            let odometerStart = try MileageLog.odometer(db)
            // The places: given, else the regular trip's.
            let startPlace = try (manual.from?.nilIfBlank ?? template?.from).map { try MileageLog.place($0, db) }
            let endPlace = try (manual.to?.nilIfBlank ?? template?.to).map { try MileageLog.place($0, db) }
            var measuredBy: LogTrip?
            if manual.extent == nil, template == nil, let startPlace, let endPlace {
                measuredBy = try MileageLog.lastGPSTrip(from: startPlace, to: endPlace, db)
                if measuredBy == nil {
                    throw StoreError.invalid("no GPS trip from '\(startPlace.name)' to '\(endPlace.name)' (or back) is "
                        + "in the log to take the distance from; say how far: --distance DISTANCE or --odometer-end READING")
                }
            }
            let distance: Double
            switch manual.extent ?? template.map({ .distance($0.distance) }) ?? measuredBy.map({ .distance($0.distance) }) {
            case .distance(let metres):
                guard metres > 0, metres <= 2_000_000 else {
                    throw StoreError.invalid("the distance must be more than 0 and at most 2000 km (1242.7 mi)")
                }
                distance = metres
            case .odometerEnd(let end):
                guard let odometerStart else {
                    throw StoreError.invalid("the log has no odometer reading yet, so --odometer-end cannot be used: "
                        + "give --distance, or record a reading first (trackctl odometer set)")
                }
                guard end > odometerStart else {
                    let unit = profile.distanceUnit
                    throw StoreError.invalid("the odometer at the end (\(unit.text(metres: end))) "
                        + "must be above the log's odometer (\(unit.text(metres: odometerStart)))")
                }
                distance = end - odometerStart
            case nil:
                throw StoreError.invalid("say how far: --distance DISTANCE, --odometer-end READING or --regular NAME")
            }
            for second in [manual.startSecond, manual.endSecond].compactMap({ $0 }) where !(0..<86_400).contains(second) {
                throw StoreError.invalid("a time of day is from 00:00 to 23:59 (\(second) s after midnight is not)")
            }
            var start: UTCTime?
            var end: UTCTime?
            if let second = manual.startSecond {
                start = LocalDates.instant(manual.date, secondOfDay: second, zone: profile.timeZone)
            }
            if let second = manual.endSecond {
                end = LocalDates.instant(manual.date, secondOfDay: second, zone: profile.timeZone)
            }
            if let start, let end, end < start {
                throw StoreError.invalid("the trip cannot end before it starts")
            }
            if let earliest = start ?? end,
               let last = try Row.fetchOne(db, sql: "SELECT id, end_time FROM trip WHERE end_time IS NOT NULL AND state != 'deleted' ORDER BY id DESC LIMIT 1"),
               let lastEnd = (try last["end_time"] as String?).flatMap({ UTCTime(iso8601: $0) }), earliest < lastEnd {
                throw StoreError.invalid("the log is kept in order: its last entry (trip \(try last["id"] as Int64)) ended at "
                    + "\(lastEnd.iso8601(fractionDigits: 0)), so a trip timed before that cannot follow it")
            }
            if let latest = end ?? start, latest > context.time {
                throw StoreError.invalid("the trip is timed after now (\(context.time.iso8601(fractionDigits: 0)) by "
                    + "\(context.timeSource) time); a trip is entered once it has been driven")
            }
            var trip = LogTrip(id: 0, kind: kind, purpose: purpose, customer: manual.customer?.nilIfBlank ?? template?.customer,
                               destination: manual.destination?.nilIfBlank ?? template?.destination,
                               source: template == nil ? .manual : .regular, state: .closed, start: start, end: end,
                               odometerStart: odometerStart, odometerEnd: odometerStart.map { $0 + distance },
                               distance: distance, regularName: template?.name, date: manual.date,
                               startPlace: startPlace?.tripPlace, endPlace: endPlace?.tripPlace,
                               commute: manual.commute, detour: manual.detour?.nilIfBlank)
            trip.id = try MileageLog.insert(trip, db)
            try Ledger.append(db, .trip, ref: trip.id.description, payload: trip.canonical(trackDigest: nil, points: nil))
            // In the unit the profile's user reads.
            let unit = profile.distanceUnit
            let distanceText = DistanceUnit.text(tenths: trip.reportedTenths(in: unit).distance) + " " + unit.rawValue
            try MileageLog.addRevision(tripID: trip.id, subject: "trip", field: "entry", old: nil,
                                       new: "\(trip.source) trip \(trip.id): \(distanceText) \(kind)\(trip.commute ? " (commute)" : "")"
                                           + (measuredBy.map { " (the distance of GPS trip \($0.id) between the two places)" } ?? ""),
                                       reason: manual.reason?.nilIfBlank ?? (template.map { "from regular trip \($0.name)" } ?? "entered by hand"),
                                       context: context, db)
            return trip
        }
    }

    /// Why a commute cannot be a business trip (or an unclassified one).
    static let commuteIsPrivate = "a commute (home to the regular place of work) is a private trip in every country's "
        + "rules: give --commute without --business or --unclassified"

    /// Changes what a trip was (kind, purpose, customer, destination, commute, detour), one revision per field
    /// changed. A commute is private: `commute` makes the trip private, and a trip made business or unclassified is
    /// no commute any more. With
    /// `erasingPrivateRoutes` (privacy mode), a GPS trip that becomes private loses its route in the same
    /// transaction (an erasure in the chain).
    /// An edit by a person (`confirming`) confirms what a rule made of the trip; trackd's own fills do not.
    public func editTrip(_ id: TripID, _ changes: TripChanges, reason: String, context: ChangeContext,
                         erasingPrivateRoutes: Bool = false, confirming: Bool = true) async throws(StoreError) -> LogTrip {
        guard let reason = reason.nilIfBlank else { throw .reasonRequired("an edit") }
        guard !changes.isEmpty else {
            throw .invalid("nothing to change: give --business, --private, --commute, --purpose, --customer, "
                           + "--destination, --detour, --from or --to")
        }
        let (trip, erasedRoute) = try await write("edit trip \(id)") { db -> (LogTrip, Bool) in
            var trip = try MileageLog.trip(id, db)
            guard trip.state != .deleted else { throw StoreError.invalid("trip \(id) is deleted; it cannot be edited") }
            let before = trip
            if let kind = changes.kind { trip.kind = kind }
            if let purpose = changes.purpose { trip.purpose = purpose.nilIfBlank }
            if let customer = changes.customer { trip.customer = customer.nilIfBlank }
            if let destination = changes.destination { trip.destination = destination.nilIfBlank }
            if let commute = changes.commute {
                if commute, let kind = changes.kind, kind != .private { throw StoreError.invalid(MileageLog.commuteIsPrivate) }
                if commute { trip.kind = .private }
                trip.commute = commute
            }
            if trip.kind != .private { trip.commute = false }
            if let detour = changes.detour { trip.detour = detour.nilIfBlank }
            // A place named by hand: a trip without its route gets one only this way.
            if let reference = changes.startPlace {
                trip.startPlace = try reference.nilIfBlank.map { try MileageLog.place($0, db).tripPlace }
            }
            if let reference = changes.endPlace {
                trip.endPlace = try reference.nilIfBlank.map { try MileageLog.place($0, db).tripPlace }
            }
            if trip.kind == .business && trip.purpose == nil && trip.state == .closed {
                throw StoreError.invalid("a business trip needs a purpose: add --purpose TEXT")
            }
            if confirming { trip.toConfirm = false }
            let fields: [(String, String?, String?)] = [
                ("kind", before.kind.rawValue, trip.kind.rawValue),
                ("purpose", before.purpose, trip.purpose),
                ("customer", before.customer, trip.customer),
                ("destination", before.destination, trip.destination),
                ("commute", before.commute ? "yes" : "no", trip.commute ? "yes" : "no"),
                ("detour", before.detour, trip.detour),
                ("start_place", before.startPlace?.text, trip.startPlace?.text),
                ("end_place", before.endPlace?.text, trip.endPlace?.text),
                ("confirmed", before.toConfirm ? "no" : nil, before.toConfirm ? (trip.toConfirm ? "no" : "yes") : nil),
            ].filter { $0.1 != $0.2 }
            guard !fields.isEmpty else { throw StoreError.invalid("trip \(id) already has these values; nothing changed") }
            try MileageLog.update(trip, db)
            try MileageLog.appendTripRecord(trip, db)
            for (field, old, new) in fields {
                try MileageLog.addRevision(tripID: id, subject: "trip", field: field, old: old, new: new, reason: reason,
                                           context: context, db)
            }
            guard erasingPrivateRoutes && trip.kind == .private && trip.source == .gps && trip.route.isKept else {
                return (trip, false)
            }
            try MileageLog.eraseRoute(of: id, reason: reason, context: context, db)
            return (try MileageLog.trip(id, db), true)
        }
        if erasedRoute { _ = try await scrub(vacuum: false) }
        return trip
    }

    /// Withdraws a trip: it stays in the log, marked deleted with the reason, and leaves the totals.
    public func deleteTrip(_ id: TripID, reason: String, context: ChangeContext) async throws(StoreError) -> LogTrip {
        guard let reason = reason.nilIfBlank else { throw .reasonRequired("deleting a trip") }
        return try await write("delete trip \(id)") { db in
            var trip = try MileageLog.trip(id, db)
            switch trip.state {
            case .deleted: throw StoreError.invalid("trip \(id) is already deleted")
            case .open: throw StoreError.invalid("trip \(id) is being recorded; stop it first")
            case .closed: break
            }
            trip.state = .deleted
            trip.deletionReason = reason
            try MileageLog.update(trip, db)
            try MileageLog.appendTripRecord(trip, db)
            try MileageLog.addRevision(tripID: id, subject: "trip", field: "state", old: TripState.closed.rawValue,
                                       new: TripState.deleted.rawValue, reason: reason, context: context, db)
            return trip
        }
    }

    /// Records a dashboard reading (or the car's own, `source: .car`): a difference to the log becomes a visible
    /// entry (unrecorded driving, or a correction when the log counted more), and the calibration factor is updated
    /// from the distance between this reading and the previous one where that is sound.
    public func setOdometer(_ value: Double, reason: String, context: ChangeContext,
                            source: OdometerSource = .dashboard) async throws(StoreError) -> OdometerUpdate {
        guard let reason = reason.nilIfBlank else { throw .reasonRequired("an odometer reading") }
        guard value.isFinite, value >= 0, value < 10_000_000_000 else {
            throw .invalid("an odometer reading must be between 0 and 9,999,999 km")
        }
        return try await write("record an odometer reading") { db in
            if let open = try Int64.fetchOne(db, sql: "SELECT id FROM trip WHERE state = 'open' LIMIT 1") {
                throw StoreError.invalid("trip \(open) is being recorded; take the reading when it has stopped")
            }
            let previous = try Row.fetchOne(db, sql: "SELECT * FROM odometer_reading ORDER BY id DESC LIMIT 1")
            // Readings in the unit the profile's user reads (and typed them in).
            let profile = try MileageLog.profile(db)
            let unit = profile.distanceUnit
            if let previous, let last: Double = try previous["value"], value < last {
                throw StoreError.invalid("the reading \(unit.text(metres: value)) is lower than the last "
                    + "reading, \(unit.text(metres: last)) on \(try previous["time"] as String): "
                    + "an odometer does not go backwards")
            }
            let logOdometer = try MileageLog.odometerWithSource(db)
            let logValue = logOdometer?.value
            var entry: LogTrip?
            if let logValue, LogTrip.tenths(value) != LogTrip.tenths(logValue) {
                let difference = value - logValue
                let lastEnd = try String.fetchOne(db, sql: "SELECT end_time FROM trip WHERE end_time IS NOT NULL ORDER BY id DESC LIMIT 1")
                    .flatMap { UTCTime(iso8601: $0) }
                    .flatMap { $0 <= context.time ? $0 : nil }
                var gap = LogTrip(id: 0, kind: .unclassified,
                                  purpose: difference > 0 ? "unrecorded driving" : "odometer correction",
                                  source: difference > 0 ? .unrecorded : .correction, state: .closed,
                                  start: lastEnd, end: context.time, odometerStart: logValue, odometerEnd: value,
                                  distance: difference, date: LocalDates.date(of: context.time, zone: profile.timeZone))
                gap.odometerStartSource = logOdometer?.source
                gap.odometerEndSource = source
                gap.id = try MileageLog.insert(gap, db)
                try Ledger.append(db, .trip, ref: gap.id.description, payload: gap.canonical(trackDigest: nil, points: nil))
                try MileageLog.addRevision(
                    tripID: gap.id, subject: "trip", field: "entry", old: nil,
                    new: "\(gap.source) \(DistanceUnit.text(tenths: gap.reportedTenths(in: unit).distance)) \(unit.rawValue) "
                        + "(\(source == .car ? "car" : "dashboard") \(unit.text(metres: value)), log \(unit.text(metres: logValue)))",
                    reason: reason, context: context, db)
                entry = gap
            }
            // Calibration from the distance between the two readings.
            var before: Double?
            var after: Double?
            var note = "the first reading sets the log's odometer; the calibration needs a second one"
            if let previous, let last: Double = try previous["value"] {
                let since: Int64 = try previous["last_trip_id"] ?? 0
                let upTo = entry?.id.rawValue ?? Int64.max
                let gps = try Double.fetchOne(db, sql: """
                    SELECT COALESCE(SUM(measured_distance), 0) FROM trip
                    WHERE state = 'closed' AND source = 'gps' AND id > ? AND id < ?
                    """, arguments: [since, upTo]) ?? 0
                let manual = try Double.fetchOne(db, sql: """
                    SELECT COALESCE(SUM(distance), 0) FROM trip
                    WHERE state = 'closed' AND source IN ('manual', 'regular') AND id > ? AND id < ?
                    """, arguments: [since, upTo]) ?? 0
                let dashboard = value - last - manual
                if gps < 20_000 {
                    note = "calibration unchanged: only \(unit.text(metres: gps)) of GPS trips "
                        + "since the last reading (at least \(unit.text(metres: 20_000)) are needed)"
                } else {
                    let factor = dashboard / gps
                    if (0.9...1.1).contains(factor) {
                        var calibrated = profile
                        calibrated.calibrationFactor = (factor * 10_000).rounded() / 10_000
                        before = profile.calibrationFactor
                        after = calibrated.calibrationFactor
                        try MileageLog.replaceProfile(
                            profile, with: calibrated,
                            reason: "dashboard \(unit.text(metres: value - last)) against "
                                + "\(unit.text(metres: gps)) measured by GPS since the last reading",
                            context: context, db)
                        note = "calibration factor now \(after!) (was \(before!)); it applies to trips from now on"
                    } else {
                        note = "calibration unchanged: the dashboard and GPS differ by \(Int(((factor - 1) * 100).rounded()))% "
                            + "since the last reading, more than the 10% a calibration error can explain (unrecorded driving?)"
                    }
                }
            }
            let lastTripID = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM trip") ?? 0
            try db.execute(sql: """
                INSERT INTO odometer_reading (value, time, log_value, gap_trip_id, last_trip_id, user, reason)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [value, context.time.iso8601(fractionDigits: 3), logValue, entry?.id, lastTripID,
                                 context.user, reason])
            let reading = OdometerReading(id: db.lastInsertedRowID, value: value, time: context.time, logValue: logValue,
                                          gapTripID: entry?.id, user: context.user, reason: reason)
            try Ledger.append(db, .odometer, ref: String(reading.id), payload: reading.canonical)
            try MileageLog.addRevision(tripID: nil, subject: "odometer", field: "reading",
                                       old: logValue.map { DistanceUnit.text(tenths: unit.tenths($0)) },
                                       new: DistanceUnit.text(tenths: unit.tenths(value)), reason: reason,
                                       context: context, db)
            return OdometerUpdate(reading: reading, entry: entry, calibrationBefore: before, calibrationAfter: after,
                                  calibrationNote: note)
        }
    }

    /// Takes the calibration factor the car's odometer proposes (`CalibrationProposal`): the profile's factor for
    /// trips from now on, with a revision that says where it came from.
    public func acceptCalibration(reason: String?, context: ChangeContext) async throws(StoreError) -> CalibrationUpdate {
        try await write("set the calibration from the car's odometer") { db in
            let profile = try MileageLog.profile(db)
            let unit = profile.distanceUnit
            let proposal: CalibrationProposal
            switch CalibrationProposal.propose(from: try MileageLog.carMeasuredTrips(db)) {
            case .success(let proposed): proposal = proposed
            case .failure(let withheld):
                throw StoreError.invalid("no calibration to take from the car's odometer: " + withheld.description(in: unit))
            }
            guard proposal.factor != profile.calibrationFactor else {
                throw StoreError.invalid("the calibration is \(profile.calibrationFactor) already, as the car's odometer proposes")
            }
            var calibrated = profile
            calibrated.calibrationFactor = proposal.factor
            try MileageLog.replaceProfile(
                profile, with: calibrated,
                reason: (reason?.nilIfBlank.map { "\($0): " } ?? "")
                    + "the car's odometer \(unit.text(metres: proposal.odometer)) against "
                    + "\(unit.text(metres: proposal.measured)) measured by GPS over \(proposal.trips) trips "
                    + "(\(proposal.firstTrip)–\(proposal.lastTrip))",
                context: context, db)
            return CalibrationUpdate(before: profile.calibrationFactor, after: proposal.factor, proposal: proposal)
        }
    }

    /// Sets the driver, plate, company, time zone, VIN, country, unit, own rate, whose car or the language; each change
    /// is a revision.
    public func setProfile(_ changes: ProfileChanges, reason: String?, context: ChangeContext) async throws(StoreError) -> LogProfile {
        guard !changes.isEmpty else {
            throw .invalid("nothing to set: give --driver, --plate, --company, --time-zone, --vin, --country, --unit, --rate, --car or --language")
        }
        let car = try changes.car.map { (text: String) throws(StoreError) -> CarOwnership? in
            guard let text = text.nilIfBlank else { return nil }
            guard let car = CarOwnership(rawValue: text.lowercased()) else {
                throw .invalid("'\(text)' is not whose car: own (the driver's own car) or company (a company car; \"\" for not said)")
            }
            return car
        }
        let rate = try changes.rate.map { (text: String) throws(StoreError) -> Int64? in
            guard let text = text.nilIfBlank else { return nil }
            guard let rate = AllowanceRate.thousandths(text) else {
                throw .invalid("'\(text)' is not a rate: the currency per unit, more than 0 and less than 10, at most three "
                               + "decimals, such as 0.42 (\"\" for the country's table)")
            }
            return rate
        }
        let country = try changes.country.map { (code: String) throws(StoreError) -> Country? in
            guard let code = code.nilIfBlank else { return nil }
            guard let country = Country(code: code) else {
                throw .invalid("'\(code)' is not a country trackd knows the rules of: EE, DE, UK or US (\"\" for none)")
            }
            return country
        }
        let unit = try changes.unit.map { (text: String) throws(StoreError) -> DistanceUnit? in
            guard let text = text.nilIfBlank else { return nil }
            guard let unit = DistanceUnit(name: text) else {
                throw .invalid("'\(text)' is not a unit: km or mi (\"\" for the country's)")
            }
            return unit
        }
        let language = try changes.language.map { (text: String) throws(StoreError) -> Language? in
            guard let text = text.nilIfBlank else { return nil }
            guard let language = Language(rawValue: text.lowercased()) else {
                throw .invalid("'\(text)' is not a language trackd speaks: en, de or et (\"\" for none)")
            }
            return language
        }
        if let zone = changes.timeZone, LocalDates.zone(zone) == nil {
            throw .invalid("'\(zone)' is not a time zone this system knows; use an IANA name such as Europe/Tallinn")
        }
        if let vin = changes.vin?.nilIfBlank, !LogProfile.isVIN(vin) {
            throw .invalid("'\(vin)' is not a VIN: 17 characters, digits and capital letters other than I, O and Q")
        }
        return try await write("change the profile") { db in
            let before = try MileageLog.profile(db)
            var after = before
            if let driver = changes.driver { after.driver = driver.nilIfBlank }
            if let plate = changes.plate { after.plate = plate.nilIfBlank }
            if let company = changes.company { after.company = company.nilIfBlank }
            if let zone = changes.timeZone { after.timeZone = zone }
            if let vin = changes.vin { after.vin = vin.nilIfBlank }
            if let country { after.country = country }
            if let unit { after.unit = unit }
            if changes.rate != nil { after.rate = rate ?? nil }
            if changes.car != nil { after.car = car ?? nil }
            if changes.language != nil { after.language = language ?? nil }
            if after.rate != nil && after.country == nil {
                throw StoreError.invalid("an own rate is paid in a country's currency per its unit: set --country too")
            }
            try MileageLog.replaceProfile(before, with: after, reason: reason?.nilIfBlank, context: context, db)
            return after
        }
    }

    /// Writes `after` as the profile where it differs from `before`: the row, a chain record, and a revision for each
    /// field that changed, all for `reason`; nothing when nothing changed.
    static func replaceProfile(_ before: LogProfile, with after: LogProfile, reason: String?, context: ChangeContext,
                               _ db: Database) throws {
        let fields: [(String, String?, String?)] = [
            ("driver", before.driver, after.driver), ("plate", before.plate, after.plate),
            ("company", before.company, after.company), ("time_zone", before.timeZone, after.timeZone),
            ("vin", before.vin, after.vin),
            ("country", before.country?.rawValue, after.country?.rawValue), ("unit", before.unit?.rawValue, after.unit?.rawValue),
            ("rate", before.rate.map { "\($0)" }, after.rate.map { "\($0)" }),
            ("car", before.car?.rawValue, after.car?.rawValue),
            ("language", before.language?.rawValue, after.language?.rawValue),
            ("calibration_factor", "\(before.calibrationFactor)", "\(after.calibrationFactor)"),
        ].filter { $0.1 != $0.2 }
        guard !fields.isEmpty else { return }
        try db.execute(sql: """
            UPDATE profile SET driver = ?, plate = ?, company = ?, time_zone = ?, vin = ?, calibration_factor = ?,
                country = ?, unit = ?, rate = ?, car = ?, language = ?
            WHERE id = 1
            """, arguments: [after.driver, after.plate, after.company, after.timeZone, after.vin, after.calibrationFactor,
                             after.country?.rawValue, after.unit?.rawValue, after.rate, after.car?.rawValue,
                             after.language?.rawValue])
        try Ledger.append(db, .profile, ref: "1", payload: after.canonical)
        for (field, old, new) in fields {
            try MileageLog.addRevision(tripID: nil, subject: "profile", field: field, old: old, new: new,
                                       reason: reason, context: context, db)
        }
    }

    /// The car met by the adapter, against the log's: a log without a VIN takes this one (a revision by the
    /// context's user, "read from the car"); one with another VIN belongs to another car.
    public func meetCar(vin: String, context: ChangeContext) async throws(StoreError) -> CarMeeting {
        guard LogProfile.isVIN(vin) else { throw .invalid("'\(vin)' is not a VIN") }
        return try await write("record the car's VIN") { db in
            let profile = try MileageLog.profile(db)
            if let known = profile.vin { return known == vin ? .thisCar : .otherCar(logVIN: known) }
            var after = profile
            after.vin = vin
            try MileageLog.replaceProfile(profile, with: after, reason: "read from the car (OBD-II, mode 09)",
                                          context: context, db)
            return .recorded
        }
    }

    /// Defines a regular trip.
    public func addRegularTrip(_ regular: RegularTrip, context: ChangeContext) async throws(StoreError) {
        guard let name = regular.name.nilIfBlank, name == regular.name.trimmingWhitespace else {
            throw .invalid("a regular trip needs a name without leading or trailing spaces")
        }
        guard regular.distance > 0, regular.distance <= 2_000_000 else {
            throw .invalid("the distance must be more than 0 and at most 2000 km (1242.7 mi)")
        }
        if regular.kind == .business && regular.purpose?.nilIfBlank == nil {
            throw .invalid("a business regular trip needs a purpose: add --purpose TEXT")
        }
        try await write("add a regular trip") { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM regular_trip WHERE name = ?", arguments: [name]) == true {
                throw StoreError.invalid("a regular trip named '\(name)' exists; remove it first to change it")
            }
            // Its places by the names they have now (the check that they exist).
            var regular = regular
            regular.from = try regular.from?.nilIfBlank.map { try MileageLog.place($0, db).name }
            regular.to = try regular.to?.nilIfBlank.map { try MileageLog.place($0, db).name }
            try db.execute(sql: """
                INSERT INTO regular_trip (name, distance, kind, purpose, customer, destination, from_place, to_place)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [name, regular.distance, regular.kind.rawValue, regular.purpose?.nilIfBlank,
                                 regular.customer?.nilIfBlank, regular.destination?.nilIfBlank, regular.from, regular.to])
            try Ledger.append(db, .regular, ref: name, payload: regular.canonical)
            try MileageLog.addRevision(tripID: nil, subject: "regular", field: name, old: nil,
                                       new: "\(LogTrip.kilometresText(metres: regular.distance)) km \(regular.kind)"
                                           + (regular.purpose.map { ": \($0)" } ?? ""),
                                       reason: nil, context: context, db)
        }
    }

    /// Removes a regular trip (trips made from it keep its name).
    public func removeRegularTrip(_ name: String, context: ChangeContext) async throws(StoreError) {
        try await write("remove a regular trip") { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM regular_trip WHERE name = ?", arguments: [name]) else {
                throw StoreError.invalid("there is no regular trip '\(name)'")
            }
            let regular = try RegularTrip(row: row)
            let rules = try Int64.fetchAll(db, sql: "SELECT id FROM rule WHERE type = 'regular' AND regular = ? ORDER BY id",
                                           arguments: [name])
            if !rules.isEmpty {
                throw StoreError.invalid("rule \(rules.map(String.init).joined(separator: ", ")) classifies trips as "
                    + "regular trip '\(name)' does: delete \(rules.count == 1 ? "it" : "them") first (trackctl rules delete)")
            }
            try db.execute(sql: "DELETE FROM regular_trip WHERE name = ?", arguments: [name])
            try Ledger.append(db, .regular, ref: name, payload: "removed")
            try MileageLog.addRevision(tripID: nil, subject: "regular", field: name,
                                       old: "\(LogTrip.kilometresText(metres: regular.distance)) km \(regular.kind)",
                                       new: nil, reason: nil, context: context, db)
        }
    }

    // MARK: - Shared pieces

    /// Appends a trip's current state to the chain (with its track digest once it is closed); returns the record's
    /// sequence number.
    @discardableResult
    static func appendTripRecord(_ trip: LogTrip, _ db: Database) throws -> Int64 {
        if trip.state == .open || trip.source != .gps {
            return try Ledger.append(db, .trip, ref: trip.id.description, payload: trip.canonical(trackDigest: nil, points: nil))
        }
        let track = try Ledger.trackDigest(db, tripID: trip.id)
        return try Ledger.append(db, .trip, ref: trip.id.description,
                                 payload: trip.canonical(trackDigest: track.digest, points: track.points))
    }

    @discardableResult
    static func addRevision(tripID: TripID?, subject: String, field: String, old: String?, new: String?, reason: String?,
                            context: ChangeContext, _ db: Database) throws -> LogRevision {
        try db.execute(sql: """
            INSERT INTO revision (trip_id, subject, field, old_value, new_value, time, time_source, user, reason)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [tripID, subject, field, old, new, context.time.iso8601(fractionDigits: 3),
                             context.timeSource, context.user, reason])
        let revision = LogRevision(id: db.lastInsertedRowID, tripID: tripID, subject: subject, field: field,
                                   oldValue: old, newValue: new, time: context.time, timeSource: context.timeSource,
                                   user: context.user, reason: reason)
        try Ledger.append(db, .revision, ref: String(revision.id), payload: revision.canonical)
        return revision
    }
}
