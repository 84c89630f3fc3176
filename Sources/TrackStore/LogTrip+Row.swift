import TrackSQLite
import TrackCore

extension LogTrip {
    /// A trip from its table row.
    init(row: Row) throws {
        let kindText: String = try row["kind"]
        let sourceText: String = try row["source"]
        let stateText: String = try row["state"]
        guard let kind = TripKind(rawValue: kindText), let source = TripSource(rawValue: sourceText),
              let state = TripState(rawValue: stateText)
        else {
            throw StoreError.invalid("trip \(try row["id"] as Int64? ?? 0) has an unknown kind, source or state "
                                     + "('\(kindText)', '\(sourceText)', '\(stateText)')")
        }
        let startSource = try LogTrip.odometerSource(row, "odometer_start_source")
        let endSource = try LogTrip.odometerSource(row, "odometer_end_source")
        try self.init(
            id: row["id"], kind: kind, purpose: row["purpose"], customer: row["customer"],
            destination: row["destination"], source: source, state: state,
            start: (row["start_time"] as String?).flatMap { UTCTime(iso8601: $0) },
            end: (row["end_time"] as String?).flatMap { UTCTime(iso8601: $0) },
            startPosition: MileageLog.coordinate(row, "start_lat", "start_lon"),
            endPosition: MileageLog.coordinate(row, "end_lat", "end_lon"),
            odometerStart: row["odometer_start"], odometerEnd: row["odometer_end"], distance: row["distance"],
            measuredDistance: row["measured_distance"], calibrationFactor: row["calibration_factor"],
            gapCount: row["gap_count"], bridgedSeconds: row["bridged_seconds"], bridgedDistance: row["bridged_distance"],
            idleAlerts: row["idle_alerts"], endReason: row["end_reason"], regularName: row["regular_name"],
            deletionReason: row["deletion_reason"], date: (row["date"] as String?).flatMap { CivilDate(iso8601: $0) },
            route: LogTrip.route(row), startPlace: LogTrip.place(row, "start"), endPlace: LogTrip.place(row, "end"),
            commute: (row["commute"] as Int64? ?? 0) != 0, detour: row["detour"])
        odometerStartSource = startSource
        odometerEndSource = endSource
        // Rules came with schema step 13.
        if let text: String = try row["rule"] {
            rule = TripRule(id: (try row["rule_id"] as Int64?).map(RuleID.init(rawValue:)), text: text)
        }
        toConfirm = (try row["to_confirm"] as Int64? ?? 0) != 0
    }

    /// An `odometer_…_source` column (`nil` in entries from before schema step 6).
    private static func odometerSource(_ row: Row, _ column: String) throws -> OdometerSource? {
        guard let text: String = try row[column] else { return nil }
        guard let source = OdometerSource(rawValue: text) else {
            throw StoreError.invalid("trip \(try row["id"] as Int64? ?? 0) has an unknown \(column) '\(text)'")
        }
        return source
    }

    /// The `start_place…` or `end_place…` columns.
    private static func place(_ row: Row, _ end: String) throws -> TripPlace? {
        guard let name: String = try row["\(end)_place"] else { return nil }
        return try TripPlace(id: (row["\(end)_place_id"] as Int64?).map { PlaceID(rawValue: $0) }, name: name,
                             address: row["\(end)_address"])
    }

    /// The `route` column (every trip of a log from before schema step 2 kept its route).
    private static func route(_ row: Row) throws -> TripRoute {
        guard let text: String = try row["route"] else { return .recorded }
        guard let route = TripRoute(rawValue: text) else {
            throw StoreError.invalid("trip \(try row["id"] as Int64? ?? 0) has an unknown route state '\(text)'")
        }
        return route
    }

    /// The column values of the trip's row (all but `id`).
    var columns: [String: (any DatabaseValueConvertible)?] {
        [
            "kind": kind.rawValue, "purpose": purpose, "customer": customer, "destination": destination,
            "commute": commute ? 1 : 0, "detour": detour,
            "source": source.rawValue, "state": state.rawValue, "date": date?.description,
            "start_time": start?.iso8601(fractionDigits: 3), "end_time": end?.iso8601(fractionDigits: 3),
            "start_lat": startPosition?.latitude, "start_lon": startPosition?.longitude,
            "end_lat": endPosition?.latitude, "end_lon": endPosition?.longitude,
            "odometer_start": odometerStart, "odometer_end": odometerEnd, "distance": distance,
            "odometer_start_source": odometerStartSource?.rawValue, "odometer_end_source": odometerEndSource?.rawValue,
            "measured_distance": measuredDistance, "calibration_factor": calibrationFactor,
            "gap_count": gapCount, "bridged_seconds": bridgedSeconds, "bridged_distance": bridgedDistance,
            "idle_alerts": idleAlerts, "end_reason": endReason, "regular_name": regularName,
            "deletion_reason": deletionReason, "route": route.rawValue,
            "start_place_id": startPlace?.id?.rawValue, "start_place": startPlace?.name,
            "start_address": startPlace?.address,
            "end_place_id": endPlace?.id?.rawValue, "end_place": endPlace?.name, "end_address": endPlace?.address,
            "rule_id": rule?.id?.rawValue, "rule": rule?.text, "to_confirm": toConfirm ? 1 : 0,
        ]
    }

    /// The canonical text the hash chain covers. An open trip is covered only by what is fixed when it opens (what it
    /// is and where the odometer stood); its measurements are covered once it closes, with a digest of its track.
    /// A trip without its route says so (`route`); a trip with it has no such line, as before schema step 2.
    func canonical(trackDigest: String?, points: Int?) -> String {
        var record = CanonicalRecord()
        record.add("id", id.rawValue)
        record.add("kind", kind.rawValue)
        record.add("purpose", purpose)
        record.add("customer", customer)
        record.add("destination", destination)
        // Came with schema step 11: a trip that is no commute and has no detour has no such lines, as before.
        if commute { record.add("commute", "yes") }
        if let detour { record.add("detour", detour) }
        record.add("source", source.rawValue)
        record.add("state", state.rawValue)
        record.add("odometer_start", odometerStart)
        // Sources came with schema step 6: an entry without one has no such line, as before.
        if let odometerStartSource { record.add("odometer_start_source", odometerStartSource.rawValue) }
        record.add("calibration_factor", calibrationFactor)
        record.add("regular_name", regularName)
        if route != .recorded { record.add("route", route.rawValue) }
        guard state != .open else { return record.text }
        record.add("date", date?.description)
        record.add("start_time", start?.iso8601(fractionDigits: 3))
        record.add("end_time", end?.iso8601(fractionDigits: 3))
        record.add("start_lat", startPosition?.latitude)
        record.add("start_lon", startPosition?.longitude)
        record.add("end_lat", endPosition?.latitude)
        record.add("end_lon", endPosition?.longitude)
        record.add("odometer_end", odometerEnd)
        if let odometerEndSource { record.add("odometer_end_source", odometerEndSource.rawValue) }
        record.add("distance", distance)
        record.add("measured_distance", measuredDistance)
        record.add("gap_count", gapCount)
        record.add("bridged_seconds", bridgedSeconds)
        record.add("bridged_distance", bridgedDistance)
        record.add("idle_alerts", idleAlerts)
        record.add("end_reason", endReason)
        record.add("deletion_reason", deletionReason)
        // Places came with schema step 3: a trip without one has no such lines, as before.
        if let startPlace {
            record.add("start_place", startPlace.name)
            record.add("start_address", startPlace.address)
        }
        if let endPlace {
            record.add("end_place", endPlace.name)
            record.add("end_address", endPlace.address)
        }
        // Rules came with schema step 13: a trip no rule classified has no such lines, as before.
        if let rule { record.add("rule", rule.text) }
        if toConfirm { record.add("to_confirm", "yes") }
        if source == .gps {
            record.add("track_sha256", trackDigest)
            record.add("track_points", points)
        }
        return record.text
    }
}

extension LogRevision {
    init(row: Row) throws {
        try self.init(id: row["id"], tripID: row["trip_id"], subject: row["subject"], field: row["field"],
                      oldValue: row["old_value"], newValue: row["new_value"],
                      time: (row["time"] as String?).flatMap { UTCTime(iso8601: $0) } ?? UTCTime(nanosecondsSinceEpoch: 0),
                      timeSource: row["time_source"], user: row["user"], reason: row["reason"],
                      valuesErased: (row["erased"] as Int64? ?? 0) != 0)
    }

    /// The canonical text the hash chain covers.
    var canonical: String {
        var record = CanonicalRecord()
        record.add("id", id)
        record.add("trip_id", tripID?.rawValue)
        record.add("subject", subject)
        record.add("field", field)
        record.add("old", oldValue)
        record.add("new", newValue)
        record.add("time", time.iso8601(fractionDigits: 3))
        record.add("time_source", timeSource)
        record.add("user", user)
        record.add("reason", reason)
        if valuesErased { record.add("values_erased", 1) }
        return record.text
    }
}

extension OdometerReading {
    init(row: Row) throws {
        try self.init(id: row["id"], value: row["value"],
                      time: (row["time"] as String?).flatMap { UTCTime(iso8601: $0) } ?? UTCTime(nanosecondsSinceEpoch: 0),
                      logValue: row["log_value"], gapTripID: row["gap_trip_id"], user: row["user"], reason: row["reason"])
    }

    /// The canonical text the hash chain covers.
    var canonical: String {
        var record = CanonicalRecord()
        record.add("id", id)
        record.add("value", value)
        record.add("time", time.iso8601(fractionDigits: 3))
        record.add("log_value", logValue)
        record.add("gap_trip_id", gapTripID?.rawValue)
        record.add("user", user)
        record.add("reason", reason)
        return record.text
    }
}

extension LogProfile {
    init(row: Row) throws {
        try self.init(driver: row["driver"], plate: row["plate"], company: row["company"], timeZone: row["time_zone"],
                      calibrationFactor: row["calibration_factor"], vin: row["vin"],
                      country: (row["country"] as String?).flatMap(Country.init(rawValue:)),
                      unit: (row["unit"] as String?).flatMap(DistanceUnit.init(rawValue:)), rate: row["rate"],
                      car: (row["car"] as String?).flatMap(CarOwnership.init(rawValue:)),
                      language: (row["language"] as String?).flatMap(Language.init(rawValue:)))
    }

    /// The canonical text the hash chain covers.
    var canonical: String {
        var record = CanonicalRecord()
        record.add("driver", driver)
        record.add("plate", plate)
        record.add("company", company)
        record.add("time_zone", timeZone)
        record.add("calibration_factor", calibrationFactor)
        // Only where there is one: a profile without a VIN keeps the text it had before schema step 7.
        if let vin { record.add("vin", vin) }
        // The same from schema step 8.
        if let country { record.add("country", country.rawValue) }
        if let unit { record.add("unit", unit.rawValue) }
        // And from step 9.
        if let rate { record.add("rate", rate) }
        // And from step 12.
        if let car { record.add("car", car.rawValue) }
        // And from step 14.
        if let language { record.add("language", language.rawValue) }
        return record.text
    }
}

extension RegularTrip {
    init(row: Row) throws {
        let kindText: String = try row["kind"]
        guard let kind = TripKind(rawValue: kindText) else {
            throw StoreError.invalid("regular trip '\(try row["name"] as String? ?? "")' has an unknown kind '\(kindText)'")
        }
        try self.init(name: row["name"], distance: row["distance"], kind: kind, purpose: row["purpose"],
                      customer: row["customer"], destination: row["destination"], from: row["from_place"],
                      to: row["to_place"])
    }

    /// The canonical text the hash chain covers.
    var canonical: String {
        var record = CanonicalRecord()
        record.add("name", name)
        record.add("distance", distance)
        record.add("kind", kind.rawValue)
        record.add("purpose", purpose)
        record.add("customer", customer)
        record.add("destination", destination)
        // Places came with schema step 3: a regular trip without them has no such lines, as before.
        if let from { record.add("from_place", from) }
        if let to { record.add("to_place", to) }
        return record.text
    }
}
