import Foundation
import TestSupport
import Testing
import TrackCore
@testable import TrackStore

@Suite("Manual trips, regular trips, edits and deletions, each in the history")
struct LogEditTests {
    @Test func aManualTripFollowsTheOdometerAndIsInTheHistory() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await log.setOdometer(10_000_000, reason: "initial reading", context: TestContext.at("2026-11-02T07:00:00Z"))
        let trip = try await log.addTrip(ManualTrip(date: CivilDate(year: 2026, month: 11, day: 2)!, extent: .distance(12_400),
                                                    kind: .business, purpose: "Tax adviser"),
                                         context: TestContext.at("2026-11-02T18:00:00Z"))
        #expect(trip.source == .manual)
        #expect(trip.odometerStart == 10_000_000)
        #expect(trip.odometerEnd == 10_012_400)
        let second = try await log.addTrip(ManualTrip(date: CivilDate(year: 2026, month: 11, day: 3)!,
                                                      extent: .odometerEnd(10_020_000), kind: .private),
                                           context: TestContext.at("2026-11-03T18:00:00Z"))
        #expect(second.distance == 7_600)
        let history = try await log.revisions(tripIDs: [trip.id, second.id])
        #expect(history.map(\.field) == ["entry", "entry"])
        #expect(history.first?.user == TestContext.user)
        #expect(history.first?.newValue?.contains("12.4 km business") == true)
    }

    @Test func aTripFromARegularTripTakesItsDistanceKindAndPurpose() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let context = TestContext.at("2026-11-02T07:00:00Z")
        try await log.addRegularTrip(RegularTrip(name: "office-harbour", distance: 8_300, kind: .business,
                                                 purpose: "Harbour warehouse", customer: "Harbour Ltd"), context: context)
        let trip = try await log.addTrip(ManualTrip(date: CivilDate(year: 2026, month: 11, day: 2)!, regular: "office-harbour"),
                                         context: context)
        #expect(trip.source == .regular)
        #expect(trip.kind == .business)
        #expect(trip.purpose == "Harbour warehouse")
        #expect(trip.customer == "Harbour Ltd")
        #expect(trip.distance == 8_300)
        #expect(trip.regularName == "office-harbour")
        #expect(try await log.regularTrips().map(\.name) == ["office-harbour"])
        await #expect(throws: StoreError.self) {
            try await log.addTrip(ManualTrip(date: CivilDate(year: 2026, month: 11, day: 2)!, regular: "nowhere"), context: context)
        }
        try await log.removeRegularTrip("office-harbour", context: context)
        #expect(try await log.regularTrips().isEmpty)
        #expect(try await log.trip(trip.id).regularName == "office-harbour", "trips keep the name")
    }

    @Test func reclassifyingATripRecordsEveryFieldWithUserAndReason() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await recordTrip(in: log, kind: .private, purpose: nil, start: "2026-11-20T08:00:00Z")
        let context = ChangeContext(user: "accountant", time: UTCTime(iso8601: "2026-11-21T09:30:00Z")!, timeSource: "system")
        let edited = try await log.editTrip(trip.id, TripChanges(kind: .business, purpose: "Meeting at the bank"),
                                            reason: "was a business meeting", context: context)
        #expect(edited.kind == .business)
        #expect(edited.purpose == "Meeting at the bank")
        let history = try await log.revisions(tripIDs: [trip.id])
        #expect(history.count == 2)
        #expect(history.map(\.field) == ["kind", "purpose"])
        #expect(history[0].oldValue == "private" && history[0].newValue == "business")
        #expect(history[1].oldValue == nil && history[1].newValue == "Meeting at the bank")
        #expect(history.allSatisfy { $0.user == "accountant" && $0.reason == "was a business meeting" && $0.timeSource == "system" })
        #expect(try await log.trip(trip.id).distance == trip.distance, "the distance is not touched")
    }

    @Test func aCommuteIsAPrivateTripAndItAndADetourAreInTheHistoryAndTheChain() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let context = TestContext.at("2026-11-03T18:00:00Z")
        let date = CivilDate(year: 2026, month: 11, day: 3)!
        // By hand: --commute alone makes a private trip that is a commute.
        let commute = try await log.addTrip(ManualTrip(date: date, extent: .distance(6_200), commute: true), context: context)
        #expect(commute.kind == .private && commute.commute)
        #expect(try await log.revisions(tripIDs: [commute.id]).first?.newValue?.hasSuffix("6.2 km private (commute)") == true)
        let refused = await #expect(throws: StoreError.self) {
            try await log.addTrip(ManualTrip(date: date, extent: .distance(6_200), kind: .business, purpose: "Office",
                                             commute: true), context: context)
        }
        #expect(refused?.description.contains("a commute (home to the regular place of work) is a private trip") == true)
        // An edit: a business trip with a detour, then made a commute (private), then business again (no commute).
        let trip = try await recordTrip(in: log, kind: .business, purpose: "Customer visit", start: "2026-11-20T08:00:00Z")
        let later = TestContext.at("2026-11-20T18:00:00Z")
        let detoured = try await log.editTrip(trip.id, TripChanges(detour: "2 km via the bank, business"), reason: "forgot",
                                              context: later)
        #expect(detoured.detour == "2 km via the bank, business" && !detoured.commute)
        let both = await #expect(throws: StoreError.self) {
            try await log.editTrip(trip.id, TripChanges(kind: .business, commute: true), reason: "both", context: later)
        }
        #expect(both?.description.contains("is a private trip") == true)
        let commuted = try await log.editTrip(trip.id, TripChanges(commute: true), reason: "was the way to work",
                                              context: later)
        #expect(commuted.kind == .private && commuted.commute)
        let business = try await log.editTrip(trip.id, TripChanges(kind: .business, detour: ""), reason: "was business after all",
                                              context: later)
        #expect(business.kind == .business && !business.commute && business.detour == nil)
        let fields = try await log.revisions(tripIDs: [trip.id]).map { "\($0.field): \($0.oldValue ?? "-") → \($0.newValue ?? "-")" }
        #expect(fields.suffix(6) == ["detour: - → 2 km via the bank, business", "kind: business → private",
                                     "commute: no → yes", "kind: private → business", "commute: yes → no",
                                     "detour: 2 km via the bank, business → -"], "\(fields)")
        // Stored, read back, and covered by the chain: changing the column behind the log's back is found.
        #expect(try await log.trip(commute.id).commute)
        #expect(try await log.verify().isIntact)
        _ = try sqlite3(folder.file("trackd.sqlite"), "UPDATE trip SET commute = 0 WHERE id = \(commute.id.rawValue)")
        #expect(try await log.verify().isIntact == false)
    }

    @Test func badEditsAreRefusedAndChangeNothing() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        let trip = try await recordTrip(in: log, kind: .private, purpose: nil, start: "2026-11-20T08:00:00Z")
        let context = TestContext.at("2026-11-21T09:00:00Z")
        let ledgerBefore = try sqlite3(path, "SELECT COUNT(*) FROM ledger")

        await #expect { try await log.editTrip(trip.id, TripChanges(purpose: "x"), reason: "  ", context: context) }
            throws: { "\($0)".contains("needs a reason") }
        await #expect { try await log.editTrip(999, TripChanges(purpose: "x"), reason: "typo", context: context) }
            throws: { "\($0)" == "there is no trip 999 in the log (trackctl trips --all lists them)" }
        await #expect { try await log.editTrip(trip.id, TripChanges(kind: .business), reason: "typo", context: context) }
            throws: { "\($0)".contains("needs a purpose") }
        await #expect { try await log.editTrip(trip.id, TripChanges(), reason: "typo", context: context) }
            throws: { "\($0)".contains("nothing to change") }
        await #expect { try await log.deleteTrip(trip.id, reason: "", context: context) }
            throws: { "\($0)".contains("needs a reason") }
        await #expect {
            try await log.addTrip(ManualTrip(date: CivilDate(year: 2026, month: 11, day: 19)!, extent: .distance(5000), kind: .private),
                                  context: context)
        } throws: { "\($0)".contains("kept in order") }
        await #expect {
            try await log.addTrip(ManualTrip(date: CivilDate(year: 2026, month: 11, day: 21)!, extent: .distance(5000), kind: .business),
                                  context: context)
        } throws: { "\($0)".contains("needs a purpose") }
        await #expect {
            try await log.addTrip(ManualTrip(date: CivilDate(year: 2026, month: 11, day: 22)!, extent: .distance(5000), kind: .private),
                                  context: context)
        } throws: { "\($0)".contains("2026-11-22 is in the future") }
        await #expect {
            try await log.addTrip(ManualTrip(date: CivilDate(year: 2026, month: 11, day: 21)!, startSecond: 90_000,
                                             extent: .distance(5000), kind: .private), context: context)
        } throws: { "\($0)".contains("from 00:00 to 23:59") }
        await #expect {
            // The context is 09:00 in the log's zone (UTC): a trip from 13:00 to 14:00 has not been driven yet.
            try await log.addTrip(ManualTrip(date: CivilDate(year: 2026, month: 11, day: 21)!, startSecond: 13 * 3600,
                                             endSecond: 14 * 3600, extent: .distance(5000), kind: .private), context: context)
        } throws: { "\($0)".contains("timed after now") }
        await #expect {
            // The recorded trip ran 08:00–08:10 on the 20th: a trip that day from 07:30 would come before it.
            try await log.addTrip(ManualTrip(date: CivilDate(year: 2026, month: 11, day: 20)!, startSecond: 7 * 3600 + 1800,
                                             extent: .distance(5000), kind: .private), context: context)
        } throws: { "\($0)".contains("a trip timed before that cannot follow it") }

        #expect(try sqlite3(path, "SELECT COUNT(*) FROM ledger") == ledgerBefore, "nothing was written")
        #expect(try await log.revisions().isEmpty)
        #expect(try await log.trip(trip.id) == trip)
    }

    /// Found by the control fuzzer: in an empty log nothing bounded a trip's date from below, and a trip by hand on
    /// 1013-11-22 at 09:30 overflowed the nanosecond clock and stopped trackd.
    @Test func aTripByHandDatedBefore1970IsRefusedNotACrash() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let context = TestContext.at("2026-11-22T09:00:00Z")
        for year in [1013, 1, 1969] {
            await #expect {
                try await log.addTrip(ManualTrip(date: CivilDate(year: year, month: 11, day: 22)!, startSecond: 34_200,
                                                 extent: .distance(1000), kind: .private), context: context)
            } throws: { "\($0)".contains("is before 1970-01-01, the earliest date a trip can have") }
        }
        #expect(try await log.trips(dates: nil).isEmpty)
        let earliest = try await log.addTrip(ManualTrip(date: MileageLog.earliestDate, startSecond: 34_200,
                                                        extent: .distance(1000), kind: .private), context: context)
        #expect(earliest.date == MileageLog.earliestDate)
        #expect(earliest.start == UTCTime(iso8601: "1970-01-01T09:30:00Z"))
    }

    /// 00:30 on 2025-09-07 never was in Santiago (the clocks went from 00:00 to 01:00): a trip by hand at that time
    /// starts at 01:30 after the jump, as the start of the day and every other local time are read.
    @Test func aTripByHandInASpringForwardGapStartsPastTheJump() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let context = TestContext.at("2025-09-08T12:00:00Z")
        _ = try await log.setProfile(ProfileChanges(timeZone: "America/Santiago"), reason: nil, context: context)
        let trip = try await log.addTrip(ManualTrip(date: CivilDate(year: 2025, month: 9, day: 7)!, startSecond: 1800,
                                                    endSecond: 2 * 3600, extent: .distance(1000), kind: .private),
                                         context: context)
        #expect(trip.start == UTCTime(iso8601: "2025-09-07T04:30:00Z"), "01:30 -03, not 23:30 -04 the day before")
        #expect(trip.end == UTCTime(iso8601: "2025-09-07T05:00:00Z"))
        #expect(trip.date == CivilDate(year: 2025, month: 9, day: 7))
    }

    @Test func deletingLeavesATombstoneOutOfTheTotals() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        let kept = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z")
        let wrong = try await recordTrip(in: log, kind: .private, purpose: nil, start: "2026-11-20T12:00:00Z")
        let deleted = try await log.deleteTrip(wrong.id, reason: "test drive in the yard", context: TestContext.at("2026-11-21T08:00:00Z"))
        #expect(deleted.state == .deleted)
        #expect(deleted.deletionReason == "test drive in the yard")
        let report = try await log.report(period: .month(year: 2026, month: 11), kind: .all,
                                          now: UTCTime(iso8601: "2026-11-22T08:00:00Z")!, generator: "test")
        #expect(report.trips.map(\.trip.id) == [kept.id, wrong.id], "the deleted trip stays in the report")
        #expect(report.totals.all == 60, "only the kept trip counts: 6.0 km")
        #expect(report.trips[1].segments.isEmpty, "no track is drawn for a deleted trip")
        #expect(try sqlite3(path, "DELETE FROM trip WHERE id = \(kept.id)").contains("never erased"))
        #expect(try await log.trips(dates: nil).count == 2)
        await #expect(throws: StoreError.self) {
            try await log.deleteTrip(wrong.id, reason: "again", context: TestContext.at("2026-11-21T08:00:00Z"))
        }
    }

    @Test func theHistoryCannotBeRewrittenThroughSQLite() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        let trip = try await recordTrip(in: log, kind: .private, purpose: nil, start: "2026-11-20T08:00:00Z")
        _ = try await log.editTrip(trip.id, TripChanges(purpose: "Shopping"), reason: "forgot", context: TestContext.at("2026-11-20T09:00:00Z"))
        #expect(try sqlite3(path, "UPDATE revision SET reason = 'other'").contains("append-only"))
        #expect(try sqlite3(path, "DELETE FROM revision").contains("append-only"))
        #expect(try sqlite3(path, "DELETE FROM ledger").contains("append-only"))
        #expect(try await log.revisions().first?.reason == "forgot")
    }

    @Test func theProfileChangesAreRevisionsAndTimeZonesAreChecked() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let context = TestContext.at("2026-11-20T08:00:00Z")
        let profile = try await log.setProfile(ProfileChanges(driver: "Jüri Tamm", plate: "123 ABC", company: "Tamm OÜ",
                                                              timeZone: "Europe/Tallinn"), reason: nil, context: context)
        #expect(profile.driver == "Jüri Tamm")
        #expect(try await log.profile() == profile)
        #expect(try await log.revisions().map(\.field) == ["driver", "plate", "company", "time_zone"])
        await #expect { try await log.setProfile(ProfileChanges(timeZone: "Mars/Olympus"), reason: nil, context: context) }
            throws: { "\($0)".contains("not a time zone") }
    }
}
