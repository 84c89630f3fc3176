import Foundation
import TestSupport
import Testing
import TrackCore
@testable import TrackStore

/// The page's list of trips (`trips.overview`): which trips a person changed after they were written, and each
/// business trip's amount, from a real log file.
struct TripsOverviewTests {
    static let context = TestContext.at("2026-11-20T07:00:00Z")

    @Test func marksTheTripsAPersonChangedButNotThoseConfirmedAndGivesTheBusinessTripsAmounts() async throws {
        let folder = try TemporaryFolder()
        let log = try await ClassificationRulesTests.logWithPlaces(folder)
        _ = try await log.setProfile(ProfileChanges(country: "DE", rate: "0.42"), reason: "an employer's rate", context: Self.context)
        _ = try await log.addRule(ClassificationRulesTests.pairRule(), reason: nil, context: Self.context)
        // Three 6 km trips: a rule's, then confirmed; a rule's, then its purpose changed by the driver; a private one.
        let confirmed = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T08:00:00Z",
                                             end: ClassificationRulesTests.office)
        let edited = try await recordTrip(in: log, kind: .unclassified, purpose: nil, start: "2026-11-20T12:00:00Z",
                                          origin: ClassificationRulesTests.office, end: ClassificationRulesTests.home)
        let personal = try await recordTrip(in: log, kind: .private, purpose: nil, start: "2026-11-20T18:00:00Z")
        let later = TestContext.at("2026-11-21T09:00:00Z")
        _ = try await log.confirmTrips(ConfirmParams(ids: [confirmed.id]), context: later)
        _ = try await log.editTrip(edited.id, TripChanges(purpose: "Returns"), reason: "it was the returns", context: later)

        let overview = try await log.tripsOverview(TripsParams(period: .month(year: 2026, month: 11)),
                                                   now: UTCTime(iso8601: "2026-12-01T12:00:00Z")!)
        #expect(overview.trips.map(\.id) == [confirmed.id, edited.id, personal.id])
        #expect(overview.changed == [edited.id], "a confirmation and a rule's classification change no entry")
        let allowance = try #require(overview.allowance)
        #expect(allowance.currency == .euro)
        let amounts = Dictionary(uniqueKeysWithValues: allowance.amounts.map { ($0.trip, $0.amount) })
        #expect(amounts[confirmed.id] == 252, "6.0 km at 0.42 €: 2.52 €")
        #expect(amounts[edited.id] == 252)
        #expect(amounts[personal.id] == nil, "a private trip has no amount")

        // The same log without a country: no amounts, the same marks.
        _ = try await log.setProfile(ProfileChanges(country: "", rate: ""), reason: "no country", context: later)
        let plain = try await log.tripsOverview(TripsParams(period: .month(year: 2026, month: 11)),
                                                now: UTCTime(iso8601: "2026-12-01T12:00:00Z")!)
        #expect(plain.allowance == nil)
        #expect(plain.changed == [edited.id])
    }
}
