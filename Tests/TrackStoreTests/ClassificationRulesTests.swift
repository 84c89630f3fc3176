import Foundation
import TestSupport
import Testing
import TrackCore
@testable import TrackStore

@Suite("Classification rules: kept with the chain and the history, classifying trips as they close, confirmed by the driver")
struct ClassificationRulesTests {
    static let home = Coordinate(latitude: 59.437, longitude: 24.7536)
    /// 6 km east of home: where `recordTrip`'s 600 s at 10 m/s end.
    static let office = Geodesic.point(east: 6000, north: 0, from: home)
    static let context = TestContext.at("2026-11-20T07:00:00Z")

    /// A log with two places, Home (1) and Example Ltd (2), in Tallinn's time zone.
    static func logWithPlaces(_ folder: TemporaryFolder) async throws -> MileageLog {
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await log.setProfile(ProfileChanges(timeZone: "Europe/Tallinn"), reason: "set up", context: context)
        _ = try await log.addPlace(Place(id: 0, name: "Home", position: home), reason: nil, context: context)
        _ = try await log.addPlace(Place(id: 0, name: "Example Ltd", position: office), reason: nil, context: context)
        return log
    }

    static func pairRule(eitherWay: Bool = true, purpose: String = "Delivery") -> ClassificationRule {
        ClassificationRule(id: 0, condition: .places(from: 1, to: 2, eitherWay: eitherWay), kind: .business,
                           purpose: purpose, customer: "Example Ltd")
    }

    @Test func aTripBetweenTheRulesPlacesClosesClassifiedByItAndToConfirm() async throws {
        let folder = try TemporaryFolder()
        let log = try await Self.logWithPlaces(folder)
        let rule = try await log.addRule(Self.pairRule(), reason: "every delivery", context: Self.context)
        #expect(rule.id == 1)
        #expect(rule.text == "Home ↔ Example Ltd")

        let there = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T08:00:00Z", end: Self.office)
        let back = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T12:00:00Z",
                                        origin: Self.office, end: Self.home)
        for trip in [there, back] {
            #expect(trip.kind == .business)
            #expect(trip.purpose == "Delivery")
            #expect(trip.customer == "Example Ltd")
            #expect(trip.rule == TripRule(id: 1, text: "Home ↔ Example Ltd"))
            #expect(trip.toConfirm)
        }
        let history = try await log.tripDetail(there.id).revisions
        let kind = history.first { $0.field == "kind" }
        #expect(kind?.oldValue == "unclassified")
        #expect(kind?.newValue == "business")
        #expect(kind?.user == "trackd")
        #expect(kind?.reason == "by rule 1: Home ↔ Example Ltd")
        #expect(kind?.time == UTCTime(iso8601: "2026-11-20T08:10:00Z"), "at the trip's end, GPS time")
        #expect(history.contains { $0.field == "purpose" && $0.newValue == "Delivery" })
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
    }

    @Test func aRuleOneWayLeavesTheWayBackToTheDriver() async throws {
        let folder = try TemporaryFolder()
        let log = try await Self.logWithPlaces(folder)
        _ = try await log.addRule(Self.pairRule(eitherWay: false), reason: nil, context: Self.context)
        let back = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T12:00:00Z",
                                        origin: Self.office, end: Self.home)
        #expect(back.kind == .unclassified)
        #expect(back.rule == nil)
        #expect(!back.toConfirm)
    }

    @Test func aTripTheDriverClassifiedIsNeverChangedByARule() async throws {
        let folder = try TemporaryFolder()
        let log = try await Self.logWithPlaces(folder)
        _ = try await log.addRule(Self.pairRule(), reason: nil, context: Self.context)
        let trip = try await recordTrip(in: log, kind: .private, purpose: nil, start: "2026-11-20T08:00:00Z", end: Self.office)
        #expect(trip.kind == .private)
        #expect(trip.purpose == nil)
        #expect(trip.rule == nil)
        #expect(!trip.toConfirm)
        #expect(try await log.tripDetail(trip.id).revisions.isEmpty)
    }

    @Test func confirmingKeepsTheRulesClassificationInTheChainAndTheHistory() async throws {
        let folder = try TemporaryFolder()
        let log = try await Self.logWithPlaces(folder)
        _ = try await log.addRule(Self.pairRule(), reason: nil, context: Self.context)
        let first = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T08:00:00Z", end: Self.office)
        let second = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T12:00:00Z",
                                          origin: Self.office, end: Self.home)
        let confirmed = try await log.confirmTrips(ConfirmParams(ids: [first.id]), context: TestContext.at("2026-11-21T09:00:00Z"))
        #expect(confirmed.map(\.id) == [first.id])
        #expect(try await log.trip(first.id).toConfirm == false)
        #expect(try await log.trip(first.id).rule?.text == "Home ↔ Example Ltd", "the trip still says which rule classified it")
        #expect(try await log.trip(second.id).toConfirm)
        let entry = try await log.tripDetail(first.id).revisions.last
        #expect(entry?.field == "confirmed")
        #expect(entry?.oldValue == "no")
        #expect(entry?.newValue == "yes")
        #expect(entry?.user == TestContext.user)

        await #expect(throws: StoreError.self, "a trip confirmed already has nothing to confirm") {
            try await log.confirmTrips(ConfirmParams(ids: [first.id]), context: Self.context)
        }
        let third = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T16:00:00Z", end: Self.office)
        _ = try await log.deleteTrip(third.id, reason: "a test drive", context: Self.context)
        do {
            _ = try await log.confirmTrips(ConfirmParams(ids: [third.id]), context: Self.context)
            Issue.record("a deleted trip was confirmed")
        } catch {
            #expect("\(error)".contains("trip \(third.id) has nothing to confirm: it is deleted"), "\(error)")
        }
        let all = try await log.confirmTrips(ConfirmParams(all: true), context: TestContext.at("2026-11-21T09:01:00Z"))
        #expect(all.map(\.id) == [second.id])
        #expect(try await log.confirmTrips(ConfirmParams(all: true), context: Self.context).isEmpty)
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
    }

    @Test func anUndoTakesBackAConfirmationThatIsTheTripsLastChangeAndNothingElse() async throws {
        let folder = try TemporaryFolder()
        let log = try await Self.logWithPlaces(folder)
        _ = try await log.addRule(Self.pairRule(), reason: nil, context: Self.context)
        let first = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T08:00:00Z", end: Self.office)
        let second = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T12:00:00Z",
                                          origin: Self.office, end: Self.home)
        let later = TestContext.at("2026-11-21T09:00:00Z")
        _ = try await log.confirmTrips(ConfirmParams(all: true), context: later)
        let undone = try await log.confirmTrips(ConfirmParams(ids: [first.id], undo: true), context: later)
        #expect(undone.map(\.id) == [first.id])
        #expect(undone.first?.toConfirm == true)
        #expect(try await log.trip(first.id).toConfirm)
        #expect(try await log.trip(second.id).toConfirm == false)
        let entry = try await log.tripDetail(first.id).revisions.last
        #expect(entry?.field == "confirmed")
        #expect(entry?.oldValue == "yes")
        #expect(entry?.newValue == "no")

        // Nothing to take back: to confirm again; and a trip changed since its confirmation (the change stands).
        _ = try await log.editTrip(second.id, TripChanges(purpose: "Returns"), reason: "the returns", context: later)
        for (id, why) in [(first.id, "it is to confirm"), (second.id, "its last change is not its confirmation")] {
            do {
                _ = try await log.confirmTrips(ConfirmParams(ids: [first.id, second.id].filter { $0 == id }, undo: true), context: later)
                Issue.record("trip \(id)'s undo was taken")
            } catch {
                #expect("\(error)".contains("trip \(id)'s confirmation cannot be taken back: \(why)"), "\(error)")
            }
        }
        await #expect(throws: StoreError.self, "an undo names its trips") {
            try await log.confirmTrips(ConfirmParams(all: true, undo: true), context: later)
        }
        #expect(try await log.trip(second.id).purpose == "Returns")
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
    }

    @Test func anEditByTheDriverConfirmsAndTrackdsOwnFillDoesNot() async throws {
        let folder = try TemporaryFolder()
        let log = try await Self.logWithPlaces(folder)
        _ = try await log.addRule(Self.pairRule(), reason: nil, context: Self.context)
        let trip = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T08:00:00Z", end: Self.office)
        let filled = try await log.editTrip(trip.id, TripChanges(destination: "Yard 3"), reason: "filled",
                                            context: ChangeContext(user: "trackd", time: trip.end!, timeSource: "gps"),
                                            confirming: false)
        #expect(filled.toConfirm)
        let edited = try await log.editTrip(trip.id, TripChanges(kind: .private), reason: "went shopping after all",
                                            context: TestContext.at("2026-11-21T09:00:00Z"))
        #expect(edited.kind == .private)
        #expect(!edited.toConfirm)
        let entries = try await log.tripDetail(trip.id).revisions.filter { $0.user == TestContext.user }
        #expect(Set(entries.map(\.field)) == ["kind", "confirmed"])
    }

    @Test func changingOrDeletingARuleChangesNoTrip() async throws {
        let folder = try TemporaryFolder()
        let log = try await Self.logWithPlaces(folder)
        _ = try await log.addRule(Self.pairRule(), reason: nil, context: Self.context)
        let confirmed = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T08:00:00Z", end: Self.office)
        _ = try await log.confirmTrips(ConfirmParams(ids: [confirmed.id]), context: Self.context)
        let open = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T12:00:00Z",
                                        origin: Self.office, end: Self.home)
        let before = try await log.trips(dates: nil)

        let changed = try await log.editRule(1, RuleChanges(kind: .private), reason: "they are friends now",
                                             context: TestContext.at("2026-11-22T09:00:00Z"))
        #expect(changed.kind == .private)
        #expect(changed.purpose == "Delivery", "kept, unused by a private rule")
        #expect(try await log.trips(dates: nil) == before)
        let deleted = try await log.deleteRule(1, reason: "no longer", context: TestContext.at("2026-11-22T09:01:00Z"))
        #expect(deleted.text == "Home ↔ Example Ltd")
        let after = try await log.trips(dates: nil)
        #expect(after.map(\.kind) == before.map(\.kind))
        #expect(after.map(\.toConfirm) == [false, true])
        #expect(after.map { $0.rule?.text } == ["Home ↔ Example Ltd", "Home ↔ Example Ltd"], "trips keep the rule's text")
        #expect(after.allSatisfy { $0.rule?.id == nil }, "and lose the number of a rule that is gone")
        #expect(try await log.rules().isEmpty)
        _ = open
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
    }

    @Test func aTripARuleMakesPrivateInPrivacyModeLosesItsRouteAsItCloses() async throws {
        let folder = try TemporaryFolder()
        let log = try await Self.logWithPlaces(folder)
        _ = try await log.addRule(ClassificationRule(id: 0, condition: .places(from: 1, to: 2, eitherWay: false), kind: .private,
                                                     commute: true), reason: nil, context: Self.context)
        let trip = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T08:00:00Z",
                                        end: Self.office, erasingPrivateRoutes: true)
        #expect(trip.kind == .private)
        #expect(trip.commute)
        #expect(trip.route == .erased)
        #expect(trip.startPosition == nil && trip.endPosition == nil)
        #expect(try await log.track(trip.id).isEmpty)
        #expect(trip.startPlace?.name == "Home", "the place names stay, as in any reclassification")
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
        #expect(report.erasures.count == 1)
    }

    @Test func aPausedRuleClassifiesNothingUntilResumed() async throws {
        let folder = try TemporaryFolder()
        let log = try await Self.logWithPlaces(folder)
        _ = try await log.addRule(Self.pairRule(), reason: nil, context: Self.context)
        _ = try await log.editRule(1, RuleChanges(state: .paused), reason: nil, context: Self.context)
        let paused = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T08:00:00Z", end: Self.office)
        #expect(paused.kind == .unclassified)
        _ = try await log.editRule(1, RuleChanges(state: .active), reason: nil, context: Self.context)
        let resumed = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T12:00:00Z", end: Self.office)
        #expect(resumed.kind == .business)
    }

    @Test func hoursAreTheLogsWallClock() async throws {
        let folder = try TemporaryFolder()
        let log = try await Self.logWithPlaces(folder)
        // Mon–Fri 08:00–18:00 in Tallinn (UTC+2 in November): business; wholly outside them: private.
        let hours = WorkHours(days: [1, 2, 3, 4, 5], start: 8 * 60, end: 18 * 60)
        _ = try await log.addRule(ClassificationRule(id: 0, condition: .hours(hours, outside: false), kind: .business,
                                                     purpose: "Client work"), reason: nil, context: Self.context)
        _ = try await log.addRule(ClassificationRule(id: 0, condition: .hours(hours, outside: true), kind: .private),
                                  reason: nil, context: Self.context)
        let origin = Geodesic.point(east: 0, north: 3000, from: Self.home)
        // Friday 2026-11-20: 06:30Z is 08:30 in Tallinn (within), 05:30Z is 07:30 (before), 15:55Z is 17:55 (across 18:00).
        let within = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T06:30:00Z", origin: origin)
        let before = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T05:30:00Z", seconds: 300, origin: origin)
        let across = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T15:55:00Z", origin: origin)
        let saturday = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-21T08:00:00Z", origin: origin)
        #expect(within.kind == .business)
        #expect(within.rule?.text == "Mon–Fri 08:00–18:00")
        #expect(before.kind == .private)
        #expect(before.rule?.text == "outside Mon–Fri 08:00–18:00")
        #expect(across.kind == .unclassified, "partly within the hours: the driver decides")
        #expect(saturday.kind == .private)
    }

    @Test func aPlacePairRuleComesBeforeTheHours() async throws {
        let folder = try TemporaryFolder()
        let log = try await Self.logWithPlaces(folder)
        _ = try await log.addRule(ClassificationRule(id: 0, condition: .hours(WorkHours(days: [1, 2, 3, 4, 5], start: 0, end: 1440),
                                                                              outside: false), kind: .private),
                                  reason: nil, context: Self.context)
        _ = try await log.addRule(Self.pairRule(), reason: nil, context: Self.context)
        let trip = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T08:00:00Z", end: Self.office)
        #expect(trip.kind == .business)
        #expect(trip.rule?.id == 2)
    }

    @Test func aRegularTripsPlacesClassifyAsTheRegularTripIs() async throws {
        let folder = try TemporaryFolder()
        let log = try await Self.logWithPlaces(folder)
        try await log.addRegularTrip(RegularTrip(name: "commute-ish", distance: 6000, kind: .business, purpose: "Stock run",
                                                 destination: "Example Ltd's yard", from: "home", to: "example-ltd"),
                                     context: Self.context)
        let rule = try await log.addRule(ClassificationRule(id: 0, condition: .regular("commute-ish"), kind: .unclassified),
                                         reason: nil, context: Self.context)
        #expect(rule.text == "regular trip 'commute-ish'")
        let trip = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T08:00:00Z", end: Self.office)
        #expect(trip.kind == .business)
        #expect(trip.purpose == "Stock run")
        #expect(trip.destination == "Example Ltd's yard")
        await #expect(throws: StoreError.self, "the regular trip a rule uses stays") {
            try await log.removeRegularTrip("commute-ish", context: Self.context)
        }
    }

    @Test func rulesThatCannotHoldOrRepeatAnotherAreRefused() async throws {
        let folder = try TemporaryFolder()
        let log = try await Self.logWithPlaces(folder)
        func refusal(_ rule: ClassificationRule) async -> String? {
            do {
                _ = try await log.addRule(rule, reason: nil, context: Self.context)
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(await refusal(Self.pairRule(purpose: " ")).map { $0.contains("needs a purpose") } == true)
        #expect(await refusal(ClassificationRule(id: 0, condition: .places(from: 1, to: 9, eitherWay: false), kind: .private))
            .map { $0.contains("no place '9'") } == true)
        #expect(await refusal(ClassificationRule(id: 0, condition: .hours(WorkHours(days: [1], start: 600, end: 500), outside: false),
                                                 kind: .private)).map { $0.contains("end after") } == true)
        #expect(await refusal(ClassificationRule(id: 0, condition: .places(from: 1, to: 2, eitherWay: false), kind: .business,
                                                 commute: true, purpose: "x")).map { $0.contains("commute") } == true)
        #expect(await refusal(ClassificationRule(id: 0, condition: .regular("nowhere"), kind: .unclassified))
            .map { $0.contains("no regular trip") } == true)
        #expect(await refusal(Self.pairRule()) == nil)
        let again = ClassificationRule(id: 0, condition: .places(from: 2, to: 1, eitherWay: true), kind: .private)
        #expect(await refusal(again).map { $0.contains("rule 1 already classifies trips Home ↔ Example Ltd") } == true)
        await #expect(throws: StoreError.self, "a place a rule uses stays") {
            try await log.removePlace("home", reason: nil, context: Self.context)
        }
        #expect(try await log.rules().count == 1)
    }

    @Test func threeTripsTheDriverClassifiedAlikeSuggestARuleUntilItIsAddedOrDeclined() async throws {
        let folder = try TemporaryFolder()
        let log = try await Self.logWithPlaces(folder)
        for (index, start) in ["2026-11-16T08:00:00Z", "2026-11-17T08:00:00Z", "2026-11-18T08:00:00Z"].enumerated() {
            #expect(try await log.ruleSuggestions().isEmpty, "after \(index) trips")
            let trip = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: start, end: Self.office)
            _ = try await log.editTrip(trip.id, TripChanges(kind: .business, purpose: "Delivery"), reason: "classified",
                                       context: Self.context)
        }
        let suggestion = try #require(try await log.ruleSuggestions().first)
        #expect(suggestion.rule.text == "Home → Example Ltd")
        #expect(suggestion.trips == [1, 2, 3])
        var declined = suggestion.rule
        declined.state = .declined
        let kept = try await log.addRule(declined, reason: "suggestion declined", context: Self.context)
        #expect(kept.state == .declined)
        #expect(try await log.ruleSuggestions().isEmpty, "never offered again")
        let next = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-19T08:00:00Z", end: Self.office)
        #expect(next.kind == .unclassified, "a declined rule classifies nothing")
        _ = try await log.deleteRule(kept.id, reason: nil, context: Self.context)
        #expect(try await log.ruleSuggestions().count == 1, "offered again once the refusal is gone")
        _ = try await log.addRule(suggestion.rule, reason: "suggested", context: Self.context)
        #expect(try await log.ruleSuggestions().isEmpty)
        let classified = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T08:00:00Z", end: Self.office)
        #expect(classified.kind == .business)
        #expect(classified.purpose == "Delivery")
    }

    @Test func verifyFindsARuleChangedOutsideTrackd() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        do {
            let log = try await Self.logWithPlaces(folder)
            _ = try await log.addRule(Self.pairRule(), reason: nil, context: Self.context)
        }
        try sqlite3(path, "UPDATE rule SET kind = 'private'")
        let report = try await MileageLog.open(path: path).verify()
        #expect(report.problems.contains { $0.record == "rule 1" && $0.detail.contains("kind 'business → 'private") })
    }
}
