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
        self.init(
            id: try row["id"], kind: kind, purpose: try row["purpose"], customer: try row["customer"],
            destination: try row["destination"], source: source, state: state,
            start: (try row["start_time"] as String?).flatMap { UTCTime(iso8601: $0) },
            end: (try row["end_time"] as String?).flatMap { UTCTime(iso8601: $0) },
            startPosition: try MileageLog.coordinate(row, "start_lat", "start_lon"),
            endPosition: try MileageLog.coordinate(row, "end_lat", "end_lon"),
            odometerStart: try row["odometer_start"], odometerEnd: try row["odometer_end"], distance: try row["distance"],
            measuredDistance: try row["measured_distance"], calibrationFactor: try row["calibration_factor"],
            gapCount: try row["gap_count"], bridgedSeconds: try row["bridged_seconds"], bridgedDistance: try row["bridged_distance"],
            idleAlerts: try row["idle_alerts"], endReason: try row["end_reason"], regularName: try row["regular_name"],
            deletionReason: try row["deletion_reason"], date: (try row["date"] as String?).flatMap { CivilDate(iso8601: $0) },
            route: try LogTrip.route(row), startPlace: try LogTrip.place(row, "start"), endPlace: try LogTrip.place(row, "end"))
    }

    /// The `start_place…` or `end_place…` columns.
    private static func place(_ row: Row, _ end: String) throws -> TripPlace? {
        guard let name: String = try row["\(end)_place"] else { return nil }
        return TripPlace(id: (try row["\(end)_place_id"] as Int64?).map { PlaceID(rawValue: $0) }, name: name,
                         address: try row["\(end)_address"])
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
            "source": source.rawValue, "state": state.rawValue, "date": date?.description,
            "start_time": start?.iso8601(fractionDigits: 3), "end_time": end?.iso8601(fractionDigits: 3),
            "start_lat": startPosition?.latitude, "start_lon": startPosition?.longitude,
            "end_lat": endPosition?.latitude, "end_lon": endPosition?.longitude,
            "odometer_start": odometerStart, "odometer_end": odometerEnd, "distance": distance,
            "measured_distance": measuredDistance, "calibration_factor": calibrationFactor,
            "gap_count": gapCount, "bridged_seconds": bridgedSeconds, "bridged_distance": bridgedDistance,
            "idle_alerts": idleAlerts, "end_reason": endReason, "regular_name": regularName,
            "deletion_reason": deletionReason, "route": route.rawValue,
            "start_place_id": startPlace?.id?.rawValue, "start_place": startPlace?.name,
            "start_address": startPlace?.address,
            "end_place_id": endPlace?.id?.rawValue, "end_place": endPlace?.name, "end_address": endPlace?.address,
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
        record.add("source", source.rawValue)
        record.add("state", state.rawValue)
        record.add("odometer_start", odometerStart)
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
        if source == .gps {
            record.add("track_sha256", trackDigest)
            record.add("track_points", points)
        }
        return record.text
    }
}

extension LogRevision {
    init(row: Row) throws {
        self.init(id: try row["id"], tripID: try row["trip_id"], subject: try row["subject"], field: try row["field"],
                  oldValue: try row["old_value"], newValue: try row["new_value"],
                  time: (try row["time"] as String?).flatMap { UTCTime(iso8601: $0) } ?? UTCTime(nanosecondsSinceEpoch: 0),
                  timeSource: try row["time_source"], user: try row["user"], reason: try row["reason"],
                  valuesErased: (try row["erased"] as Int64? ?? 0) != 0)
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
        self.init(id: try row["id"], value: try row["value"],
                  time: (try row["time"] as String?).flatMap { UTCTime(iso8601: $0) } ?? UTCTime(nanosecondsSinceEpoch: 0),
                  logValue: try row["log_value"], gapTripID: try row["gap_trip_id"], user: try row["user"], reason: try row["reason"])
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
        self.init(driver: try row["driver"], plate: try row["plate"], company: try row["company"], timeZone: try row["time_zone"],
                  calibrationFactor: try row["calibration_factor"])
    }

    /// The canonical text the hash chain covers.
    var canonical: String {
        var record = CanonicalRecord()
        record.add("driver", driver)
        record.add("plate", plate)
        record.add("company", company)
        record.add("time_zone", timeZone)
        record.add("calibration_factor", calibrationFactor)
        return record.text
    }
}

extension RegularTrip {
    init(row: Row) throws {
        let kindText: String = try row["kind"]
        guard let kind = TripKind(rawValue: kindText) else {
            throw StoreError.invalid("regular trip '\(try row["name"] as String? ?? "")' has an unknown kind '\(kindText)'")
        }
        self.init(name: try row["name"], distance: try row["distance"], kind: kind, purpose: try row["purpose"],
                  customer: try row["customer"], destination: try row["destination"], from: try row["from_place"],
                  to: try row["to_place"])
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
