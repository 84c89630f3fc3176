/// A rule in JSON: its condition's fields flat beside what it makes of a trip, with `type` naming the condition
/// (`places`: `from_place`, `to_place`, `either_way`; `hours`: `days`, `start`, `end`, `outside`; `regular`).
extension ClassificationRule: Codable {
    enum CodingKeys: String, CodingKey {
        case id, type, kind, commute, purpose, customer, state, text
        case fromPlace = "from_place"
        case toPlace = "to_place"
        case eitherWay = "either_way"
        case days, start, end, outside, regular
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(RuleID.self, forKey: .id) ?? 0
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "places":
            condition = .places(from: try c.decode(PlaceID.self, forKey: .fromPlace),
                                to: try c.decode(PlaceID.self, forKey: .toPlace),
                                eitherWay: try c.decodeIfPresent(Bool.self, forKey: .eitherWay) ?? false)
        case "hours":
            let start = try c.decode(String.self, forKey: .start)
            let end = try c.decode(String.self, forKey: .end)
            guard let from = WorkHours.minutes(start), let to = WorkHours.minutes(end) else {
                throw DecodingError.dataCorruptedError(forKey: .start, in: c,
                                                       debugDescription: "hours are HH:MM, from 00:00 to 24:00")
            }
            condition = .hours(WorkHours(days: try c.decode([Int].self, forKey: .days), start: from, end: to),
                               outside: try c.decodeIfPresent(Bool.self, forKey: .outside) ?? false)
        case "regular":
            condition = .regular(try c.decode(String.self, forKey: .regular))
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c,
                                                   debugDescription: "a rule's type is places, hours or regular")
        }
        kind = try c.decodeIfPresent(TripKind.self, forKey: .kind) ?? .unclassified
        commute = try c.decodeIfPresent(Bool.self, forKey: .commute) ?? false
        purpose = try c.decodeIfPresent(String.self, forKey: .purpose)
        customer = try c.decodeIfPresent(String.self, forKey: .customer)
        state = try c.decodeIfPresent(RuleState.self, forKey: .state) ?? .active
        text = try c.decodeIfPresent(String.self, forKey: .text)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(condition.type, forKey: .type)
        switch condition {
        case .places(let from, let to, let eitherWay):
            try c.encode(from, forKey: .fromPlace)
            try c.encode(to, forKey: .toPlace)
            try c.encode(eitherWay, forKey: .eitherWay)
        case .hours(let hours, let outside):
            try c.encode(hours.days, forKey: .days)
            try c.encode(WorkHours.clock(hours.start), forKey: .start)
            try c.encode(WorkHours.clock(hours.end), forKey: .end)
            try c.encode(outside, forKey: .outside)
        case .regular(let name):
            try c.encode(name, forKey: .regular)
        }
        try c.encode(kind, forKey: .kind)
        if commute { try c.encode(commute, forKey: .commute) }
        try c.encodeIfPresent(purpose, forKey: .purpose)
        try c.encodeIfPresent(customer, forKey: .customer)
        try c.encode(state, forKey: .state)
        try c.encodeIfPresent(text, forKey: .text)
    }
}
