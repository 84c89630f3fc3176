import TrackSQLite
import TrackCore

extension ClassificationRule {
    /// A rule from its table row.
    init(row: Row) throws {
        let id: Int64 = try row["id"]
        let type: String = try row["type"]
        let condition: RuleCondition
        switch type {
        case "places":
            condition = .places(from: PlaceID(try row["from_place"] as Int64), to: PlaceID(try row["to_place"] as Int64),
                                eitherWay: (try row["either_way"] as Int64) != 0)
        case "hours":
            let days = (try row["days"] as String).split(separator: ",").compactMap { Int($0) }
            condition = .hours(WorkHours(days: days, start: try row["start_minute"], end: try row["end_minute"]),
                               outside: (try row["outside"] as Int64) != 0)
        case "regular":
            condition = .regular(try row["regular"])
        default:
            throw StoreError.invalid("rule \(id) has an unknown type '\(type)'")
        }
        let kindText: String = try row["kind"]
        let stateText: String = try row["state"]
        guard let kind = TripKind(rawValue: kindText), let state = RuleState(rawValue: stateText) else {
            throw StoreError.invalid("rule \(id) has an unknown kind or state ('\(kindText)', '\(stateText)')")
        }
        try self.init(id: RuleID(id), condition: condition, kind: kind, commute: (row["commute"] as Int64) != 0,
                      purpose: row["purpose"], customer: row["customer"], state: state)
    }

    /// The column values of the rule's row (all but `id`).
    var columns: [String: (any DatabaseValueConvertible)?] {
        var columns: [String: (any DatabaseValueConvertible)?] = [
            "type": condition.type, "from_place": nil, "to_place": nil, "either_way": 0, "days": nil,
            "start_minute": nil, "end_minute": nil, "outside": 0, "regular": nil, "kind": kind.rawValue,
            "commute": commute ? 1 : 0, "purpose": purpose, "customer": customer, "state": state.rawValue,
        ]
        switch condition {
        case .places(let from, let to, let eitherWay):
            columns["from_place"] = from.rawValue
            columns["to_place"] = to.rawValue
            columns["either_way"] = eitherWay ? 1 : 0
        case .hours(let hours, let outside):
            columns["days"] = hours.days.map(String.init).joined(separator: ",")
            columns["start_minute"] = hours.start
            columns["end_minute"] = hours.end
            columns["outside"] = outside ? 1 : 0
        case .regular(let name):
            columns["regular"] = name
        }
        return columns
    }

    /// The canonical text the hash chain covers.
    var canonical: String {
        var record = CanonicalRecord()
        record.add("id", id.rawValue)
        record.add("type", condition.type)
        switch condition {
        case .places(let from, let to, let eitherWay):
            record.add("from_place", from.rawValue)
            record.add("to_place", to.rawValue)
            record.add("either_way", eitherWay ? "yes" : "no")
        case .hours(let hours, let outside):
            record.add("days", hours.days.map(String.init).joined(separator: ","))
            record.add("start", WorkHours.clock(hours.start))
            record.add("end", WorkHours.clock(hours.end))
            record.add("outside", outside ? "yes" : "no")
        case .regular(let name):
            record.add("regular", name)
        }
        record.add("kind", kind.rawValue)
        if commute { record.add("commute", "yes") }
        record.add("purpose", purpose)
        record.add("customer", customer)
        record.add("state", state.rawValue)
        return record.text
    }
}
