import TrackSQLite
import TrackCore

/// Classification rules (docs/rules.md): kept like everything else in the log, each change a chain record and an
/// entry in the history. A rule classifies a GPS trip that closes unclassified, in the close's transaction; the trip
/// keeps the rule's text and stays to be confirmed. Changing or deleting a rule changes no trip.
extension MileageLog {
    /// Every rule, by number, with its text (the places' names as they are now).
    public func rules() async throws(StoreError) -> [ClassificationRule] {
        try await read("read the rules") { db in try MileageLog.rules(db) }
    }

    /// Adds a rule (`draft.id` is ignored).
    public func addRule(_ draft: ClassificationRule, reason: String?, context: ChangeContext) async throws(StoreError) -> ClassificationRule {
        var rule = draft
        rule.purpose = rule.purpose?.nilIfBlank
        rule.customer = rule.customer?.nilIfBlank
        rule.text = nil
        if case .regular(let name) = rule.condition {
            rule.condition = .regular(name.trimmed)
            rule.kind = .unclassified
            rule.commute = false
            rule.purpose = nil
            rule.customer = nil
        }
        if let problem = rule.problem { throw .invalid(problem) }
        let checked = rule
        return try await write("add a rule") { db in
            var rule = checked
            try MileageLog.checkCondition(rule, db)
            let columns = rule.columns
            let names = columns.keys.sorted()
            try db.execute(sql: "INSERT INTO rule (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
                           arguments: StatementArguments(names.map { columns[$0]! }))
            rule.id = RuleID(db.lastInsertedRowID)
            try Ledger.append(db, .rule, ref: rule.id.description, payload: rule.canonical)
            rule.text = try MileageLog.ruleBook(db).text(of: rule)
            try MileageLog.addRevision(tripID: nil, subject: "rule", field: "rule \(rule.id)", old: nil,
                                       new: MileageLog.historyText(rule), reason: reason?.nilIfBlank, context: context, db)
            return rule
        }
    }

    /// Changes what a rule makes of a trip, or its state. Trips it classified keep what it made of them.
    public func editRule(_ id: RuleID, _ changes: RuleChanges, reason: String?,
                         context: ChangeContext) async throws(StoreError) -> ClassificationRule {
        guard !changes.isEmpty else {
            throw .invalid("nothing to change: give --business, --private, --commute, --purpose, --customer, --pause or --resume")
        }
        return try await write("change rule \(id)") { db in
            let before = try MileageLog.rule(id, db)
            var rule = changes.applied(to: before)
            if case .regular = rule.condition, changes.kind != nil || changes.commute != nil || changes.purpose != nil
                || changes.customer != nil {
                throw StoreError.invalid("rule \(id) classifies as regular trip does: change the regular trip, or "
                                         + "pause this rule and add another")
            }
            if let problem = rule.problem { throw StoreError.invalid(problem) }
            let fields: [(String, String?, String?)] = [
                ("kind", before.kind.rawValue, rule.kind.rawValue),
                ("commute", before.commute ? "yes" : "no", rule.commute ? "yes" : "no"),
                ("purpose", before.purpose, rule.purpose),
                ("customer", before.customer, rule.customer),
                ("state", before.state.rawValue, rule.state.rawValue),
            ].filter { $0.1 != $0.2 }
            guard !fields.isEmpty else { throw StoreError.invalid("rule \(id) already has these values; nothing changed") }
            let columns = rule.columns
            let names = columns.keys.sorted()
            try db.execute(sql: "UPDATE rule SET \(names.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?",
                           arguments: StatementArguments(names.map { columns[$0]! } + [id.rawValue]))
            try Ledger.append(db, .rule, ref: id.description, payload: rule.canonical)
            for (field, old, new) in fields {
                try MileageLog.addRevision(tripID: nil, subject: "rule", field: "rule \(id): \(field)", old: old, new: new,
                                           reason: reason?.nilIfBlank, context: context, db)
            }
            rule.text = try MileageLog.ruleBook(db).text(of: rule)
            return rule
        }
    }

    /// Deletes a rule. Trips it classified keep what it made of them and its text.
    public func deleteRule(_ id: RuleID, reason: String?, context: ChangeContext) async throws(StoreError) -> ClassificationRule {
        try await write("delete rule \(id)") { db in
            var rule = try MileageLog.rule(id, db)
            rule.text = try MileageLog.ruleBook(db).text(of: rule)
            try db.execute(sql: "DELETE FROM rule WHERE id = ?", arguments: [id.rawValue])
            try db.execute(sql: "UPDATE trip SET rule_id = NULL WHERE rule_id = ?", arguments: [id.rawValue])
            try Ledger.append(db, .rule, ref: id.description, payload: Ledger.removed)
            try MileageLog.addRevision(tripID: nil, subject: "rule", field: "rule \(id)", old: MileageLog.historyText(rule),
                                       new: nil, reason: reason?.nilIfBlank, context: context, db)
            return rule
        }
    }

    /// Confirms what rules made of trips: the trips named, or (`all`) every trip still to confirm. A trip named that
    /// has nothing to confirm is refused, and nothing is confirmed.
    public func confirmTrips(_ params: ConfirmParams, context: ChangeContext) async throws(StoreError) -> [LogTrip] {
        let ids = params.ids ?? []
        guard !ids.isEmpty || params.all == true else {
            throw .invalid("give the trips to confirm, or all: trackctl confirm 12 13, trackctl confirm --all")
        }
        guard ids.count <= 10_000 else { throw .invalid("at most 10000 trips at once") }
        if params.undo == true { return try await unconfirmTrips(ids, all: params.all == true, context: context) }
        return try await write("confirm trips") { db in
            var trips: [LogTrip] = []
            if params.all == true {
                trips = try Row.fetchAll(db, sql: "SELECT * FROM trip WHERE to_confirm = 1 AND state = 'closed' ORDER BY id")
                    .map(LogTrip.init(row:))
            }
            for id in ids where !trips.contains(where: { $0.id == id }) {
                let trip = try MileageLog.trip(id, db)
                guard trip.toConfirm, trip.state == .closed else {
                    throw StoreError.invalid("trip \(id) has nothing to confirm: "
                        + (trip.state == .deleted ? "it is deleted"
                           : trip.state == .open ? "it is being recorded"
                           : trip.rule == nil ? "no rule classified it" : "it was confirmed already"))
                }
                trips.append(trip)
            }
            var confirmed: [LogTrip] = []
            for var trip in trips {
                trip.toConfirm = false
                try MileageLog.update(trip, db)
                try MileageLog.appendTripRecord(trip, db)
                try MileageLog.addRevision(tripID: trip.id, subject: "trip", field: "confirmed", old: "no", new: "yes",
                                           reason: "confirmed what rule '\(trip.rule?.text ?? "")' made of it",
                                           context: context, db)
                confirmed.append(trip)
            }
            return confirmed
        }
    }

    /// Takes confirmations back (the page's undo, moments after a tap): each trip named is to confirm again, with the
    /// history's `confirmed: yes → no`. Refused, and nothing changed, for a trip whose last change is not its
    /// confirmation (edited since, or never confirmed), and for `all`.
    private func unconfirmTrips(_ ids: [TripID], all: Bool, context: ChangeContext) async throws(StoreError) -> [LogTrip] {
        guard !all, !ids.isEmpty else { throw .invalid("an undo names the trips whose confirmation it takes back") }
        return try await write("take confirmations back") { db in
            var trips: [LogTrip] = []
            for id in Set(ids).sorted(by: { $0.rawValue < $1.rawValue }) {
                let trip = try MileageLog.trip(id, db)
                let last = try Row.fetchOne(db, sql: "SELECT * FROM revision WHERE trip_id = ? ORDER BY id DESC LIMIT 1",
                                            arguments: [id]).map(LogRevision.init(row:))
                guard trip.state == .closed, !trip.toConfirm, last?.field == "confirmed", last?.newValue == "yes" else {
                    throw StoreError.invalid("trip \(id)'s confirmation cannot be taken back: "
                        + (trip.toConfirm ? "it is to confirm" : last?.field == "confirmed"
                           ? "it is not confirmed" : "its last change is not its confirmation (change it instead)"))
                }
                trips.append(trip)
            }
            for var trip in trips {
                trip.toConfirm = true
                try MileageLog.update(trip, db)
                try MileageLog.appendTripRecord(trip, db)
                try MileageLog.addRevision(tripID: trip.id, subject: "trip", field: "confirmed", old: "yes", new: "no",
                                           reason: "confirmation taken back", context: context, db)
            }
            return trips.map { var trip = $0; trip.toConfirm = true; return trip }
        }
    }

    /// Rules the driver's own classifications suggest: a pair of named places classified the same way three times
    /// or more, which no rule names yet (a declined suggestion is a rule too).
    public func ruleSuggestions() async throws(StoreError) -> [RuleSuggestion] {
        try await read("suggest rules") { db in
            let trips = try Row.fetchAll(db, sql: """
                SELECT * FROM trip WHERE source = 'gps' AND state = 'closed' AND rule IS NULL AND kind != 'unclassified'
                    AND start_place_id IS NOT NULL AND end_place_id IS NOT NULL ORDER BY id
                """).map(LogTrip.init(row:))
            let book = try MileageLog.ruleBook(db)
            return RuleSuggestions.suggest(trips: trips, rules: book.rules, placeNames: book.placeNames)
        }
    }

    // MARK: - Shared pieces

    static func rules(_ db: Database) throws -> [ClassificationRule] {
        let book = try ruleBook(db)
        return book.rules.map { rule in
            var rule = rule
            rule.text = book.text(of: rule)
            return rule
        }
    }

    static func rule(_ id: RuleID, _ db: Database) throws -> ClassificationRule {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM rule WHERE id = ?", arguments: [id.rawValue]) else {
            let known = try Int64.fetchAll(db, sql: "SELECT id FROM rule ORDER BY id")
            throw StoreError.invalid("there is no rule \(id)" + (known.isEmpty ? " (none are kept yet: trackctl rules add)"
                : "; rules: \(known.map(String.init).joined(separator: ", "))"))
        }
        return try ClassificationRule(row: row)
    }

    /// The rules, the regular trips and the places' names, as the matching needs them.
    static func ruleBook(_ db: Database) throws -> RuleBook {
        let rules = try Row.fetchAll(db, sql: "SELECT * FROM rule ORDER BY id").map(ClassificationRule.init(row:))
        let regular = try Row.fetchAll(db, sql: "SELECT * FROM regular_trip ORDER BY name").map(RegularTrip.init(row:))
        var names: [PlaceID: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, name FROM place") {
            names[PlaceID(try row["id"] as Int64)] = try row["name"]
        }
        return RuleBook(rules: rules, regularTrips: regular, placeNames: names)
    }

    /// A rule in one line for the change history: `Office ↔ Example Ltd: business (Delivery, Example Ltd)`, with
    /// its state when it is not active.
    static func historyText(_ rule: ClassificationRule) -> String {
        "\(rule.text ?? "rule \(rule.id)"): \(rule.outcomeText)" + (rule.state == .active ? "" : " [\(rule.state)]")
    }

    /// Refuses a rule whose places or regular trip do not exist, and one whose condition an active rule has already.
    static func checkCondition(_ rule: ClassificationRule, _ db: Database) throws {
        switch rule.condition {
        case .places(let from, let to, _):
            _ = try place(from.description, db)
            _ = try place(to.description, db)
        case .regular(let name):
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM regular_trip WHERE name = ?", arguments: [name]) else {
                throw StoreError.invalid("there is no regular trip '\(name)'")
            }
            let regular = try RegularTrip(row: row)
            guard regular.from != nil, regular.to != nil else {
                throw StoreError.invalid("regular trip '\(name)' names no places, so no GPS trip can be matched to "
                                         + "it: give it --from and --to")
            }
        case .hours:
            break
        }
        for other in try rules(db) where other.state != .declined && same(other.condition, rule.condition) {
            throw StoreError.invalid("rule \(other.id) already classifies trips \(other.text ?? ""): change it with "
                                     + "trackctl rules edit \(other.id)")
        }
    }

    /// Whether two conditions hold for the same trips (a place pair either way in either order).
    static func same(_ first: RuleCondition, _ second: RuleCondition) -> Bool {
        switch (first, second) {
        case (.places(let a, let b, true), .places(let c, let d, true)):
            (a, b) == (c, d) || (a, b) == (d, c)
        default:
            first == second
        }
    }

    /// The rules that name a place (a place a rule uses is not removed).
    static func rulesUsing(place id: PlaceID, _ db: Database) throws -> [RuleID] {
        try Int64.fetchAll(db, sql: "SELECT id FROM rule WHERE from_place = ? OR to_place = ? ORDER BY id",
                           arguments: [id.rawValue, id.rawValue]).map(RuleID.init(rawValue:))
    }

    /// Classifies a GPS trip that closes unclassified by the first rule that holds: its kind (and commute), and its
    /// purpose, customer and destination where it has none. Returns the fields changed, for the history.
    static func applyRules(to trip: inout LogTrip, zone: String, _ db: Database) throws -> [(String, String?, String?)] {
        guard trip.source == .gps, trip.kind == .unclassified else { return [] }
        let facts = TripFacts(startPlace: trip.startPlace, endPlace: trip.endPlace,
                              localStart: trip.start.map { LocalDates.wallClock(of: $0, zone: zone) },
                              localEnd: trip.end.map { LocalDates.wallClock(of: $0, zone: zone) })
        guard let match = try ruleBook(db).match(facts) else { return [] }
        let before = trip
        trip.kind = match.kind
        trip.commute = match.kind == .private && match.commute
        if trip.purpose == nil { trip.purpose = match.purpose?.nilIfBlank }
        if trip.customer == nil { trip.customer = match.customer?.nilIfBlank }
        if trip.destination == nil { trip.destination = match.destination?.nilIfBlank }
        guard trip.kind != .business || trip.purpose != nil else {
            trip = before
            return []
        }
        trip.rule = TripRule(id: match.rule.id, text: match.text)
        trip.toConfirm = true
        return [
            ("kind", before.kind.rawValue, trip.kind.rawValue),
            ("commute", before.commute ? "yes" : "no", trip.commute ? "yes" : "no"),
            ("purpose", before.purpose, trip.purpose),
            ("customer", before.customer, trip.customer),
            ("destination", before.destination, trip.destination),
        ].filter { $0.1 != $0.2 }
    }
}
