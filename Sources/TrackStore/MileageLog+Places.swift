import TrackSQLite
import TrackCore

/// Named places (docs/places.md): kept like everything else in the log, each change a chain record and an entry in
/// the history. A place added or moved names the past trips that started or ended inside it and had no place yet.
extension MileageLog {
    /// Every place, by number.
    public func places() async throws(StoreError) -> [Place] {
        try await read("read the places") { db in try MileageLog.places(db) }
    }

    /// The place a reference names: its number, its name (any case), or its key (`example-ltd`).
    public func place(_ reference: String) async throws(StoreError) -> Place {
        try await read("read a place") { db in try MileageLog.place(reference, db) }
    }

    /// Adds a place (`draft.id` is ignored) and names the past trips that started or ended inside it.
    public func addPlace(_ draft: Place, reason: String?, context: ChangeContext) async throws(StoreError) -> PlaceUpdate {
        var place = draft
        place.name = place.name.trimmed
        place.address = place.address?.nilIfBlank
        place.customer = place.customer?.nilIfBlank
        place.purpose = place.purpose?.nilIfBlank
        if place.kind == .unclassified { place.kind = nil }
        try MileageLog.validate(place)
        let checked = place
        return try await write("add a place") { db in
            var place = checked
            try MileageLog.checkNameFree(place.name, except: nil, db)
            let columns = place.columns
            let names = columns.keys.sorted()
            try db.execute(sql: "INSERT INTO place (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
                           arguments: StatementArguments(names.map { columns[$0]! }))
            place.id = PlaceID(db.lastInsertedRowID)
            try Ledger.append(db, .place, ref: place.id.description, payload: place.canonical)
            try MileageLog.addRevision(tripID: nil, subject: "place", field: place.name, old: nil, new: place.historyText,
                                       reason: reason?.nilIfBlank, context: context, db)
            return try MileageLog.nameTrips(at: place, context: context, db)
        }
    }

    /// Changes a place. Trips keep the name and address they got; trips without a place that started or ended
    /// inside it as it now is get it.
    public func editPlace(_ reference: String, _ changes: PlaceChanges, reason: String?,
                          context: ChangeContext) async throws(StoreError) -> PlaceUpdate {
        guard !changes.isEmpty else {
            throw .invalid("nothing to change: give --name, --at, --radius, --address, --customer, --purpose or --kind")
        }
        return try await write("change a place") { db in
            let before = try MileageLog.place(reference, db)
            let place = changes.applied(to: before)
            try MileageLog.validate(place)
            try MileageLog.checkNameFree(place.name, except: place.id, db)
            let fields: [(String, String?, String?)] = [
                ("name", before.name, place.name),
                ("position", before.historyText, place.historyText),
                ("address", before.address, place.address),
                ("customer", before.customer, place.customer),
                ("purpose", before.purpose, place.purpose),
                ("kind", before.kind?.rawValue, place.kind?.rawValue),
            ].filter { $0.1 != $0.2 }
            guard !fields.isEmpty else {
                throw StoreError.invalid("place '\(before.name)' already has these values; nothing changed")
            }
            let columns = place.columns
            let names = columns.keys.sorted()
            try db.execute(sql: "UPDATE place SET \(names.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?",
                           arguments: StatementArguments(names.map { columns[$0]! } + [place.id.rawValue]))
            try Ledger.append(db, .place, ref: place.id.description, payload: place.canonical)
            for (field, old, new) in fields {
                try MileageLog.addRevision(tripID: nil, subject: "place", field: "\(place.name): \(field)", old: old,
                                           new: new, reason: reason?.nilIfBlank, context: context, db)
            }
            return try MileageLog.nameTrips(at: place, context: context, db)
        }
    }

    /// Removes a place. Trips that started or ended there keep its name and address.
    public func removePlace(_ reference: String, reason: String?, context: ChangeContext) async throws(StoreError) -> Place {
        try await write("remove a place") { db in
            let place = try MileageLog.place(reference, db)
            let rules = try MileageLog.rulesUsing(place: place.id, db)
            if !rules.isEmpty {
                throw StoreError.invalid("rule \(rules.map(\.description).joined(separator: ", ")) classifies trips to or "
                    + "from '\(place.name)': delete \(rules.count == 1 ? "it" : "them") first (trackctl rules delete)")
            }
            try db.execute(sql: "DELETE FROM place WHERE id = ?", arguments: [place.id.rawValue])
            try db.execute(sql: "UPDATE trip SET start_place_id = NULL WHERE start_place_id = ?", arguments: [place.id.rawValue])
            try db.execute(sql: "UPDATE trip SET end_place_id = NULL WHERE end_place_id = ?", arguments: [place.id.rawValue])
            try Ledger.append(db, .place, ref: place.id.description, payload: Ledger.removed)
            try MileageLog.addRevision(tripID: nil, subject: "place", field: place.name, old: place.historyText, new: nil,
                                       reason: reason?.nilIfBlank, context: context, db)
            return place
        }
    }

    // MARK: - Shared pieces

    static func places(_ db: Database) throws -> [Place] {
        try Row.fetchAll(db, sql: "SELECT * FROM place ORDER BY id").map(Place.init(row:))
    }

    static func place(_ reference: String, _ db: Database) throws -> Place {
        let text = reference.trimmingWhitespace
        if let number = Int64(text),
           let row = try Row.fetchOne(db, sql: "SELECT * FROM place WHERE id = ?", arguments: [number]) {
            return try Place(row: row)
        }
        if let row = try Row.fetchOne(db, sql: "SELECT * FROM place WHERE key = ?", arguments: [Place.key(text)]),
           !Place.key(text).isEmpty {
            return try Place(row: row)
        }
        let known = try String.fetchAll(db, sql: "SELECT name FROM place ORDER BY name")
        throw StoreError.invalid("there is no place '\(reference)'"
            + (known.isEmpty ? " (none are named yet: trackctl place add NAME --here)"
                : "; known: \(known.joined(separator: ", "))"))
    }

    /// A place's values within their ranges.
    static func validate(_ place: Place) throws(StoreError) {
        guard !Place.key(place.name).isEmpty else {
            throw .invalid("a place needs a name with a letter or digit in it")
        }
        guard place.name.count <= 200 else { throw .invalid("a place's name may have at most 200 characters") }
        guard Place.radii.contains(place.radius) else {
            throw .invalid("the radius must be from \(Int(Place.radii.lowerBound)) to \(Int(Place.radii.upperBound)) m")
        }
        let position = place.position
        guard position.latitude.isFinite, position.longitude.isFinite, abs(position.latitude) <= 90,
              abs(position.longitude) <= 180 else {
            throw .invalid("the position must be a latitude from -90 to 90 and a longitude from -180 to 180 degrees")
        }
    }

    /// Refuses a name another place has (names are compared by their key: case and punctuation aside).
    static func checkNameFree(_ name: String, except id: PlaceID?, _ db: Database) throws {
        guard let row = try Row.fetchOne(db, sql: "SELECT id, name FROM place WHERE key = ?", arguments: [Place.key(name)]),
              PlaceID(try row["id"] as Int64) != id else { return }
        throw StoreError.invalid("a place named '\(try row["name"] as String)' exists; choose another name or edit that one")
    }

    /// Gives `place` to the closed GPS trips without a place whose start or end lies inside it (and inside no
    /// place that holds it better); each change is a chain record and an entry in the history.
    static func nameTrips(at place: Place, context: ChangeContext, _ db: Database) throws -> PlaceUpdate {
        let all = try places(db)
        var result = PlaceUpdate(place: place)
        let rows = try Row.fetchAll(db, sql: """
            SELECT * FROM trip WHERE state = 'closed' AND source = 'gps'
                AND ((start_place IS NULL AND start_lat IS NOT NULL) OR (end_place IS NULL AND end_lat IS NOT NULL))
            ORDER BY id
            """)
        let reason = "place '\(place.name)' named"
        for row in rows {
            var trip = try LogTrip(row: row)
            var fields: [(String, String)] = []
            if trip.startPlace == nil, let start = trip.startPosition, Place.containing(start, among: all)?.id == place.id {
                trip.startPlace = place.tripPlace
                fields.append(("start_place", place.tripPlace.text))
                result.startsNamed.append(trip.id)
            }
            if trip.endPlace == nil, let end = trip.endPosition, Place.containing(end, among: all)?.id == place.id {
                trip.endPlace = place.tripPlace
                fields.append(("end_place", place.tripPlace.text))
                result.endsNamed.append(trip.id)
            }
            guard !fields.isEmpty else { continue }
            try update(trip, db)
            try appendTripRecord(trip, db)
            for (field, new) in fields {
                try addRevision(tripID: trip.id, subject: "trip", field: field, old: nil, new: new, reason: reason,
                                context: context, db)
            }
        }
        return result
    }
}

extension MileageLog {
    /// The newest closed GPS trip from one place to the other, in that direction if there is one, else back.
    static func lastGPSTrip(from start: Place, to end: Place, _ db: Database) throws -> LogTrip? {
        for (from, to) in [(start.id, end.id), (end.id, start.id)] {
            if let row = try Row.fetchOne(db, sql: """
                SELECT * FROM trip WHERE state = 'closed' AND source = 'gps' AND start_place_id = ? AND end_place_id = ?
                ORDER BY id DESC LIMIT 1
                """, arguments: [from.rawValue, to.rawValue]) {
                return try LogTrip(row: row)
            }
        }
        return nil
    }
}

extension MileageLog {
    /// Spots where the car parked again and again that no place holds yet (`PlaceSuggestion`), from the ends of the
    /// closed GPS trips that kept their positions.
    public func placeSuggestions(_ params: PlaceSuggestParams) async throws(StoreError) -> [PlaceSuggestion] {
        let radius = params.radius ?? Place.defaultRadius
        guard Place.radii.contains(radius) else {
            throw .invalid("the radius must be from \(Int(Place.radii.lowerBound)) to \(Int(Place.radii.upperBound)) m")
        }
        let minimum = params.minimumVisits ?? PlaceSuggestion.defaultMinimumVisits
        guard (1...1000).contains(minimum) else { throw .invalid("the least number of visits must be from 1 to 1000") }
        return try await read("find places worth a name") { db in
            let trips = try Row.fetchAll(db, sql: """
                SELECT id, start_time, end_time, start_lat, start_lon, end_lat, end_lon FROM trip
                WHERE state = 'closed' AND source = 'gps' AND (start_lat IS NOT NULL OR end_lat IS NOT NULL)
                ORDER BY id
                """).map { row in
                    try TripEndpoints(id: row["id"], start: (row["start_time"] as String?).flatMap { UTCTime(iso8601: $0) },
                                      end: (row["end_time"] as String?).flatMap { UTCTime(iso8601: $0) },
                                      startPosition: MileageLog.coordinate(row, "start_lat", "start_lon"),
                                      endPosition: MileageLog.coordinate(row, "end_lat", "end_lon"))
                }
            return PlaceSuggestion.suggestions(trips: trips, places: try MileageLog.places(db), radius: radius,
                                               minimumVisits: minimum)
        }
    }

    static func coordinate(_ row: Row, _ latitude: String, _ longitude: String) throws -> Coordinate? {
        guard let lat: Double = try row[latitude], let lon: Double = try row[longitude] else { return nil }
        return Coordinate(latitude: lat, longitude: lon)
    }
}
