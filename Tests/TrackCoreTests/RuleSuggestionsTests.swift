import Testing
import TrackCore

@Suite("Rule suggestions: a pair of places the driver classified the same way three times")
struct RuleSuggestionsTests {
    static let home = TripPlace(id: 1, name: "Home", address: nil)
    static let office = TripPlace(id: 2, name: "Office", address: nil)
    static let customer = TripPlace(id: 3, name: "Example Ltd", address: nil)
    static let names: [PlaceID: String] = [1: "Home", 2: "Office", 3: "Example Ltd"]

    static func trip(_ id: Int64, _ from: TripPlace?, _ to: TripPlace?, _ kind: TripKind = .business,
                     purpose: String? = "Delivery", customer: String? = nil, commute: Bool = false) -> LogTrip {
        var trip = LogTrip(id: TripID(id), kind: kind, purpose: purpose, customer: customer, source: .gps, state: .closed,
                           start: UTCTime(iso8601: "2026-11-0\(id)T08:00:00Z"), distance: 5000, commute: commute)
        trip.startPlace = from
        trip.endPlace = to
        return trip
    }

    @Test func threeTripsBetweenTwoPlacesClassifiedAlikeSuggestARuleBothWaysWhenTheyWentBothWays() {
        let two = [Self.trip(1, Self.office, Self.customer), Self.trip(2, Self.customer, Self.office, purpose: "Pick-up")]
        #expect(RuleSuggestions.suggest(trips: two, rules: [], placeNames: Self.names).isEmpty, "two are not enough")
        let three = two + [Self.trip(3, Self.office, Self.customer, customer: "Example Ltd")]
        let suggestions = RuleSuggestions.suggest(trips: three, rules: [], placeNames: Self.names)
        #expect(suggestions.count == 1)
        let suggestion = suggestions.first
        #expect(suggestion?.number == 1)
        #expect(suggestion?.trips == [1, 2, 3])
        #expect(suggestion?.rule.condition == .places(from: 2, to: 3, eitherWay: true))
        #expect(suggestion?.rule.text == "Office ↔ Example Ltd")
        #expect(suggestion?.rule.kind == .business)
        #expect(suggestion?.rule.purpose == "Delivery", "the purpose given most often")
        #expect(suggestion?.rule.customer == "Example Ltd")
        #expect(suggestion?.rule.problem == nil, "a rule rule.add takes as it is")
        let oneWay = RuleSuggestions.suggest(trips: [1, 2, 3].map { Self.trip($0, Self.home, Self.office, .private, purpose: nil, commute: true) },
                                             rules: [], placeNames: Self.names)
        #expect(oneWay.first?.rule.condition == .places(from: 1, to: 2, eitherWay: false))
        #expect(oneWay.first?.rule.commute == true)
        #expect(oneWay.first?.rule.text == "Home → Office")
    }

    @Test func aPairARuleNamesInAnyStateIsNotSuggestedAgain() {
        let trips = [1, 2, 3].map { Self.trip($0, Self.office, Self.customer) }
        for state in RuleState.allCases {
            let rule = ClassificationRule(id: 1, condition: .places(from: 3, to: 2, eitherWay: false), kind: .private, state: state)
            #expect(RuleSuggestions.suggest(trips: trips, rules: [rule], placeNames: Self.names).isEmpty, "\(state)")
        }
        let hours = ClassificationRule(id: 1, condition: .hours(WorkHours(days: [1], start: 0, end: 60), outside: false), kind: .private)
        #expect(RuleSuggestions.suggest(trips: trips, rules: [hours], placeNames: Self.names).count == 1)
    }

    @Test func onlyTheLastThreeAgreeingMakeASuggestion() {
        var trips = [1, 2, 3].map { Self.trip($0, Self.office, Self.customer) }
        trips.append(Self.trip(4, Self.office, Self.customer, .private, purpose: nil))
        #expect(RuleSuggestions.suggest(trips: trips, rules: [], placeNames: Self.names).isEmpty, "the habit changed")
        trips += [5, 6].map { Self.trip($0, Self.customer, Self.office, .private, purpose: nil) }
        let suggestion = RuleSuggestions.suggest(trips: trips, rules: [], placeNames: Self.names).first
        #expect(suggestion?.rule.kind == .private)
        #expect(suggestion?.trips == [4, 5, 6])
    }

    @Test func tripsARuleClassifiedOrWithoutBothPlacesDoNotCount() {
        var byRule = Self.trip(3, Self.office, Self.customer)
        byRule.rule = TripRule(id: 9, text: "Office ↔ Example Ltd")
        let trips = [Self.trip(1, Self.office, Self.customer), Self.trip(2, Self.office, Self.customer), byRule,
                     Self.trip(4, nil, Self.customer), Self.trip(5, Self.office, Self.customer, .unclassified, purpose: nil)]
        #expect(RuleSuggestions.suggest(trips: trips, rules: [], placeNames: Self.names).isEmpty)
    }

    @Test func theMostSuggestedComeFirst() {
        let trips = [1, 2, 3].map { Self.trip($0, Self.home, Self.office, .private, purpose: nil) }
            + [4, 5, 6, 7].map { Self.trip($0, Self.office, Self.customer) }
        let suggestions = RuleSuggestions.suggest(trips: trips, rules: [], placeNames: Self.names)
        #expect(suggestions.map(\.number) == [1, 2])
        #expect(suggestions.map(\.rule.text) == ["Office → Example Ltd", "Home → Office"])
    }
}
