/// Rules suggested by what the driver does (docs/rules.md, "Suggested rules"). Pure: the log hands in its closed
/// trips, its rules and the places' names.
public enum RuleSuggestions {
    /// Trips between one pair of places classified the same way that make a suggestion.
    public static let minimumTrips = 3

    /// The suggestions, most trips first: for each pair of named places whose last `minimum` trips the driver
    /// classified the same way (kind and commute), and no rule of any state names (a declined suggestion is a rule
    /// that says never), a rule with that classification and the trips' most frequent purpose and customer; either
    /// way when the trips went both ways. Trips a rule classified, unclassified ones and those without both places
    /// do not count.
    public static func suggest(trips: [LogTrip], rules: [ClassificationRule], placeNames: [PlaceID: String],
                               minimum: Int = minimumTrips) -> [RuleSuggestion] {
        struct Pair: Hashable { var first: PlaceID, second: PlaceID }
        var byPair: [Pair: [LogTrip]] = [:]
        for trip in trips.sorted(by: { ($0.start ?? UTCTime(nanosecondsSinceEpoch: 0), $0.id) < ($1.start ?? UTCTime(nanosecondsSinceEpoch: 0), $1.id) }) {
            guard trip.source == .gps, trip.state == .closed, trip.rule == nil, trip.kind != .unclassified,
                  let start = trip.startPlace?.id, let end = trip.endPlace?.id, start != end else { continue }
            byPair[Pair(first: min(start, end), second: max(start, end)), default: []].append(trip)
        }
        let named = Set(rules.compactMap { rule -> Pair? in
            guard case .places(let from, let to, _) = rule.condition else { return nil }
            return Pair(first: min(from, to), second: max(from, to))
        })
        var found: [(rule: ClassificationRule, trips: [LogTrip])] = []
        for (pair, all) in byPair where !named.contains(pair) && all.count >= minimum {
            let last = all.suffix(minimum)
            guard let kind = last.first?.kind, let commute = last.first?.commute,
                  last.allSatisfy({ $0.kind == kind && $0.commute == commute }) else { continue }
            let same = all.filter { $0.kind == kind && $0.commute == commute }
            let purpose = mostFrequent(same.compactMap(\.purpose))
            if kind == .business && purpose == nil { continue }
            let ways = Dictionary(grouping: same) { $0.startPlace?.id == pair.first }
            let forward = ways[true]?.count ?? 0, backward = ways[false]?.count ?? 0
            let from = forward >= backward ? pair.first : pair.second
            let to = forward >= backward ? pair.second : pair.first
            var rule = ClassificationRule(id: 0, condition: .places(from: from, to: to, eitherWay: forward > 0 && backward > 0),
                                          kind: kind, commute: commute, purpose: kind == .business ? purpose : nil,
                                          customer: kind == .business ? mostFrequent(same.compactMap(\.customer)) : nil)
            rule.text = rule.text { placeNames[$0] }
            found.append((rule, same))
        }
        found.sort { ($0.trips.count, $0.trips.last?.id ?? 0) > ($1.trips.count, $1.trips.last?.id ?? 0) }
        return found.enumerated().map { index, item in
            RuleSuggestion(number: index + 1, rule: item.rule, trips: item.trips.map(\.id))
        }
    }

    /// The text given most often (the latest of those tied), ignoring blank ones.
    static func mostFrequent(_ texts: [String]) -> String? {
        var counts: [String: (count: Int, last: Int)] = [:]
        for (index, text) in texts.enumerated() where !text.trimmed.isEmpty {
            counts[text, default: (0, 0)] = (counts[text, default: (0, 0)].count + 1, index)
        }
        return counts.max { ($0.value.count, $0.value.last) < ($1.value.count, $1.value.last) }?.key
    }
}
