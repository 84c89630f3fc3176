import Foundation
import TrackSQLite
import TestSupport
import Testing
import TrackCore
@testable import TrackStore

@Suite("verify: the hash chain names the first record changed outside trackd")
struct VerificationTests {
    /// A log with a bit of everything: readings, GPS trips, a manual trip, an edit, a deletion, a regular trip.
    private func makeLog(_ folder: TemporaryFolder) async throws -> (MileageLog, [LogTrip]) {
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let context = TestContext.at("2026-11-20T07:00:00Z")
        _ = try await log.setProfile(ProfileChanges(driver: "Jüri Tamm", plate: "123 ABC"), reason: nil, context: context)
        _ = try await log.setOdometer(48_210_000, reason: "initial reading", context: context)
        try await log.addRegularTrip(RegularTrip(name: "bank", distance: 4_200, kind: .business, purpose: "Bank"), context: context)
        let first = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z")
        let second = try await recordTrip(in: log, kind: .private, purpose: nil, start: "2026-11-20T12:00:00Z", segments: 2)
        let third = try await log.addTrip(ManualTrip(date: CivilDate(year: 2026, month: 11, day: 20)!, regular: "bank"), context: context)
        _ = try await log.editTrip(second.id, TripChanges(kind: .business, purpose: "Supplier"), reason: "was for work", context: context)
        _ = try await log.deleteTrip(third.id, reason: "entered twice", context: context)
        return (log, [first, second, third])
    }

    @Test func anUntouchedLogVerifies() async throws {
        let folder = try TemporaryFolder()
        let (log, trips) = try await makeLog(folder)
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
        #expect(report.trips == trips.count)
        #expect(report.revisions > 0)
        #expect(report.chainRecords > report.trips + report.revisions)
        #expect(report.head == (try await log.chainHead()))
        #expect(report.head?.count == 64)
    }

    @Test func oneByteChangedInATripRowIsNamed() async throws {
        let folder = try TemporaryFolder()
        let (log, trips) = try await makeLog(folder)
        // 6000 m becomes 7000 m: one character of the stored value changes.
        try sqlite3(folder.file("trackd.sqlite"), "UPDATE trip SET distance = 7000 WHERE id = \(trips[0].id)")
        let report = try await log.verify()
        #expect(!report.isIntact)
        let first = try #require(report.problems.first)
        #expect(first.record == "trip \(trips[0].id)")
        #expect(first.detail.contains("distance 6000.0 → 7000.0"), "\(first.detail)")
        #expect(report.problems.count == 1)
    }

    /// Found by hand: a value of another type (a text where a number belongs) stopped `verify` with a crash.
    @Test func aValueOfAnotherTypeChangedByHandIsNamedNotACrash() async throws {
        let folder = try TemporaryFolder()
        let (log, trips) = try await makeLog(folder)
        try sqlite3(folder.file("trackd.sqlite"), "UPDATE trip SET distance = 'abc' WHERE id = \(trips[0].id)")
        let report = try await log.verify()
        #expect(report.problems.map(\.record) == ["trip \(trips[0].id)"])
        #expect(report.problems.first?.detail.contains("column 'distance' holds the text 'abc'") == true,
                "\(report.problems)")
        // Reading the trip is an error that says the same, for the daemon and for trackctl.
        let error = try await #require(throws: StoreError.self) { _ = try await log.trip(trips[0].id) }
        #expect("\(error)".contains("column 'distance' holds the text 'abc'"), "\(error)")
    }

    @Test func aMovedTrackPointIsNamed() async throws {
        let folder = try TemporaryFolder()
        let (log, trips) = try await makeLog(folder)
        try sqlite3(folder.file("trackd.sqlite"), "UPDATE track_point SET lat_e7 = lat_e7 + 1 WHERE trip_id = \(trips[1].id) AND seq = 300")
        let report = try await log.verify()
        #expect(report.problems.map(\.record) == ["trip \(trips[1].id)"])
        #expect(report.problems.first?.detail.contains("track_sha256") == true)
    }

    @Test func aRewrittenChainRecordIsNamed() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let (log, trips) = try await makeLog(folder)
        // Someone changes a trip and its chain record to match, without recomputing the hashes.
        let seq = try sqlite3(path, "SELECT MAX(seq) FROM ledger WHERE subject = 'trip' AND ref = '\(trips[0].id)'")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try sqlite3(path, """
            DROP TRIGGER ledger_append_only;
            UPDATE ledger SET payload = replace(payload, 'distance=6000.0', 'distance=7000.0') WHERE seq = \(seq);
            UPDATE trip SET distance = 7000 WHERE id = \(trips[0].id);
            """)
        let report = try await log.verify()
        #expect(report.problems.first?.record == "chain record \(seq) (trip \(trips[0].id))")
        #expect(report.problems.first?.detail.contains("does not match its digest") == true)

        // With the digest made to match as well, the hash over it no longer does.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            let text = try String.fetchOne(db, sql: "SELECT payload FROM ledger WHERE seq = ?", arguments: [seq]) ?? ""
            try db.execute(sql: "UPDATE ledger SET payload_sha256 = ? WHERE seq = ?", arguments: [Ledger.sha256(text), seq])
        }
        try queue.close()
        let rehashed = try await log.verify()
        #expect(rehashed.problems.first?.record == "chain record \(seq) (trip \(trips[0].id))")
        #expect(rehashed.problems.first?.detail.contains("chain was altered") == true, "\(rehashed.problems)")
    }

    @Test func aRemovedRevisionAndAnAddedTripAreNamed() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let (log, _) = try await makeLog(folder)
        try sqlite3(path, """
            DROP TRIGGER revision_no_delete;
            DELETE FROM revision WHERE id = (SELECT MAX(id) FROM revision);
            INSERT INTO trip (kind, source, state, distance, date) VALUES ('private', 'manual', 'closed', 1000, '2026-11-20');
            """)
        let report = try await log.verify()
        let records = report.problems.map(\.record)
        #expect(records.contains { $0.hasPrefix("trip ") }, "\(records)")
        #expect(records.contains { $0.hasPrefix("revision ") }, "\(records)")
        #expect(report.problems.first { $0.record.hasPrefix("trip ") }?.detail.contains("added outside trackd") == true)
        #expect(report.problems.first { $0.record.hasPrefix("revision ") }?.detail.contains("removed outside trackd") == true)
    }

    @Test func aChangedProfileIsNamed() async throws {
        let folder = try TemporaryFolder()
        let (log, _) = try await makeLog(folder)
        try sqlite3(folder.file("trackd.sqlite"), "UPDATE profile SET plate = '999 ZZZ'")
        let report = try await log.verify()
        #expect(report.problems.map(\.record) == ["profile"])
        #expect(report.problems.first?.detail.contains("plate '123 ABC → '999 ZZZ") == true, "\(report.problems)")
    }
}
