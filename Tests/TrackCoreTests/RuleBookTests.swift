import Foundation
import Testing
import TrackCore

@Suite("Rule book: which rule classifies a closing trip")
struct RuleBookTests {
    static let home = TripPlace(id: 1, name: "Home", address: nil)
    static let office = TripPlace(id: 2, name: "Office", address: nil)
    static let customer = TripPlace(id: 3, name: "Example Ltd", address: nil)
    static let names: [PlaceID: String] = [1: "Home", 2: "Office", 3: "Example Ltd"]
    static let weekdays = WorkHours(days: [1, 2, 3, 4, 5], start: 8 * 60, end: 18 * 60)

    static func facts(_ from: TripPlace?, _ to: TripPlace?, _ start: String = "2026-11-20T09:00:00Z",
                      _ end: String = "2026-11-20T09:30:00Z") -> TripFacts {
        TripFacts(startPlace: from, endPlace: to, localStart: UTCTime(iso8601: start), localEnd: UTCTime(iso8601: end))
    }

    static func book(_ rules: [ClassificationRule], regular: [RegularTrip] = []) -> RuleBook {
        RuleBook(rules: rules, regularTrips: regular, placeNames: names)
    }

    @Test func aPairEitherWayHoldsBothWaysAndOneWayOnlyItsOwn() {
        let either = Self.book([ClassificationRule(id: 1, condition: .places(from: 2, to: 3, eitherWay: true), kind: .business,
                                                   purpose: "Delivery")])
        #expect(either.match(Self.facts(Self.office, Self.customer))?.text == "Office ↔ Example Ltd")
        #expect(either.match(Self.facts(Self.customer, Self.office))?.kind == .business)
        #expect(either.match(Self.facts(Self.home, Self.customer)) == nil)
        #expect(either.match(Self.facts(nil, Self.customer)) == nil, "a trip that started at no place")
        let oneWay = Self.book([ClassificationRule(id: 1, condition: .places(from: 1, to: 2, eitherWay: false), kind: .private,
                                                   commute: true)])
        let commute = oneWay.match(Self.facts(Self.home, Self.office))
        #expect(commute?.text == "Home → Office")
        #expect(commute?.commute == true)
        #expect(oneWay.match(Self.facts(Self.office, Self.home)) == nil)
    }

    @Test func rulesAreTriedPairsOneWayThenEitherWayThenRegularThenHours() {
        let rules = [
            ClassificationRule(id: 1, condition: .hours(Self.weekdays, outside: false), kind: .business, purpose: "Work"),
            ClassificationRule(id: 2, condition: .regular("stock"), kind: .unclassified),
            ClassificationRule(id: 3, condition: .places(from: 2, to: 3, eitherWay: true), kind: .business, purpose: "Delivery"),
            ClassificationRule(id: 4, condition: .places(from: 2, to: 3, eitherWay: false), kind: .private),
        ]
        let regular = [RegularTrip(name: "stock", distance: 1000, kind: .business, purpose: "Stock", from: "Office", to: "Example Ltd"),
                       RegularTrip(name: "gym", distance: 1000, kind: .private, from: "Home", to: "Example Ltd")]
        let book = Self.book(rules, regular: regular)
        #expect(book.match(Self.facts(Self.office, Self.customer))?.rule.id == 4)
        #expect(book.match(Self.facts(Self.customer, Self.office))?.rule.id == 3)
        #expect(Self.book(Array(rules[0...1]), regular: regular).match(Self.facts(Self.customer, Self.office))?.purpose == "Stock")
        #expect(book.match(Self.facts(Self.home, Self.office))?.rule.id == 1)
        var paused = rules
        paused[3].state = .paused
        paused[2].state = .declined
        #expect(Self.book(paused, regular: regular).match(Self.facts(Self.office, Self.customer))?.rule.id == 2)
    }

    @Test func theHoursHoldATripWhollyWithinThemAndOutsideATripThatTouchesNone() {
        let within = ClassificationRule(id: 1, condition: .hours(Self.weekdays, outside: false), kind: .business, purpose: "Work")
        let outside = ClassificationRule(id: 2, condition: .hours(Self.weekdays, outside: true), kind: .private)
        let book = Self.book([within, outside])
        // 2026-11-20 is a Friday, 2026-11-21 a Saturday.
        #expect(book.match(Self.facts(nil, nil, "2026-11-20T08:00:00Z", "2026-11-20T18:00:00Z"))?.rule.id == 1)
        #expect(book.match(Self.facts(nil, nil, "2026-11-20T07:30:00Z", "2026-11-20T07:59:59Z"))?.rule.id == 2)
        #expect(book.match(Self.facts(nil, nil, "2026-11-20T07:50:00Z", "2026-11-20T08:10:00Z")) == nil, "across the start")
        #expect(book.match(Self.facts(nil, nil, "2026-11-20T17:50:00Z", "2026-11-20T18:00:01Z")) == nil, "a second past the end")
        #expect(book.match(Self.facts(nil, nil, "2026-11-21T10:00:00Z", "2026-11-21T11:00:00Z"))?.rule.id == 2, "Saturday")
        #expect(book.match(Self.facts(nil, nil, "2026-11-20T22:00:00Z", "2026-11-23T07:00:00Z"))?.rule.id == 2,
                "Friday night to Monday morning touches no hours")
        #expect(book.match(Self.facts(nil, nil, "2026-11-20T22:00:00Z", "2026-11-23T08:30:00Z")) == nil)
        #expect(book.match(TripFacts(startPlace: nil, endPlace: nil, localStart: nil, localEnd: nil)) == nil)
    }

    @Test func aRegularTripWithoutPlacesOrPurposeClassifiesNothing() {
        let rule = ClassificationRule(id: 1, condition: .regular("Stock"), kind: .unclassified)
        let noPurpose = [RegularTrip(name: "stock", distance: 1000, kind: .business, from: "Office", to: "Example Ltd")]
        #expect(Self.book([rule], regular: noPurpose).match(Self.facts(Self.office, Self.customer)) == nil)
        let noPlaces = [RegularTrip(name: "stock", distance: 1000, kind: .private)]
        #expect(Self.book([rule], regular: noPlaces).match(Self.facts(Self.office, Self.customer)) == nil)
        let named = [RegularTrip(name: "stock", distance: 1000, kind: .private, from: "office", to: "example-ltd")]
        #expect(Self.book([rule], regular: named).match(Self.facts(Self.customer, Self.office))?.kind == .private,
                "places compared by key, either way")
    }

    @Test func aRuleThatCannotHoldSaysWhy() {
        #expect(ClassificationRule(id: 1, condition: .places(from: 1, to: 2, eitherWay: false), kind: .business).problem?
            .contains("purpose") == true)
        #expect(ClassificationRule(id: 1, condition: .places(from: 1, to: 2, eitherWay: false), kind: .unclassified).problem != nil)
        #expect(ClassificationRule(id: 1, condition: .hours(WorkHours(days: [], start: 0, end: 60), outside: false),
                                   kind: .private).problem?.contains("day") == true)
        #expect(ClassificationRule(id: 1, condition: .places(from: 1, to: 2, eitherWay: false), kind: .private).problem == nil)
    }

    @Test func daysAndHoursReadAsPeopleWriteThem() {
        #expect(WorkHours.days("mon-fri") == [1, 2, 3, 4, 5])
        #expect(WorkHours.days("Mon, wed,FRIDAY") == [1, 3, 5])
        #expect(WorkHours.days("sat-sun") == [6, 7])
        #expect(WorkHours.days("1-3,5") == [1, 2, 3, 5])
        #expect(WorkHours.days("fri-mon") == nil)
        #expect(WorkHours.days("mo") == nil)
        #expect(WorkHours.days("") == nil)
        #expect(WorkHours.minutes("8:00") == 480)
        #expect(WorkHours.minutes("24:00") == 1440)
        #expect(WorkHours.minutes("24:01") == nil)
        #expect(WorkHours.minutes("8.00") == nil)
        #expect(WorkHours(days: [1, 2, 3, 4, 5], start: 480, end: 1080).text == "Mon–Fri 08:00–18:00")
        #expect(WorkHours(days: [1, 3, 6, 7], start: 450, end: 720).text == "Mon, Wed, Sat, Sun 07:30–12:00")
    }

    @Test func aRuleGoesThroughJSONAsItWas() throws {
        let rules = [
            ClassificationRule(id: 1, condition: .places(from: 1, to: 2, eitherWay: true), kind: .private, commute: true),
            ClassificationRule(id: 2, condition: .hours(Self.weekdays, outside: true), kind: .business, purpose: "On call",
                               customer: "Example Ltd", state: .paused),
            ClassificationRule(id: 3, condition: .regular("stock"), kind: .unclassified),
        ]
        for rule in rules {
            let json = try JSONEncoder().encode(rule)
            #expect(try JSONDecoder().decode(ClassificationRule.self, from: json) == rule,
                    "\(String(decoding: json, as: UTF8.self))")
        }
    }
}
