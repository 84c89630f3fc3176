import Foundation
import TrackSQLite
import TestSupport
import Testing
import TrackCore
@testable import TrackStore

@Suite("Erasure: routes, names and the whole log go from the file, and the chain still verifies")
struct ErasureTests {
    static let origin = Coordinate(latitude: 59.437, longitude: 24.7536)

    /// The positions a trip recorded by `recordTrip` passed (its points lie on a line eastwards at 10 m/s).
    static func positions(seconds: Int = 600, origin: Coordinate = origin) -> [Coordinate] {
        let metresPerDegree = 111_320 * cos(origin.latitude * .pi / 180)
        return stride(from: 0, through: seconds, by: 1).map {
            Coordinate(latitude: origin.latitude, longitude: origin.longitude + Double($0) * 10 / metresPerDegree)
        }
    }

    @Test func aPrivateTripInPrivacyModeStoresNoPointAndNoPositionButItsDistance() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        let trip = try await recordTrip(in: log, kind: .private, purpose: nil, start: "2026-11-20T18:00:00Z",
                                        route: .withheld)
        #expect(trip.route == .withheld)
        #expect(trip.startPosition == nil && trip.endPosition == nil)
        #expect(trip.measuredDistance == 6000)
        #expect(trip.start == UTCTime(iso8601: "2026-11-20T18:00:00Z"))
        #expect(try sqlite3(path, "SELECT COUNT(*) FROM track_point").trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        let stored = StoredBytes(log: path)
        #expect(stored.coordinates(of: Self.positions()).isEmpty, "\(stored.coordinates(of: Self.positions()).prefix(5))")
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
    }

    @Test func aRunningPrivateTripShowsItsDistanceSoFarFromItsProgress() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await log.beginTrip(kind: .private, purpose: nil, customer: nil, route: .withheld)
        let start = UTCTime(iso8601: "2026-11-20T18:00:00Z")!
        let points = (0...30).map { second in
            RecordedPoint(point: TrackPoint(time: start.adding(seconds: Double(second)),
                                            coordinate: Self.positions()[second], speed: 10, error: 3,
                                            distance: Double(second) * 10), segment: 0)
        }
        try await log.appendPoints(points, to: trip.id)
        let running = try await log.trip(trip.id)
        #expect(running.measuredDistance == 300)
        let open = try #require(try await log.openTrip())
        #expect(open.last == nil)
        #expect(open.trip.end == start.adding(seconds: 30))
        #expect(open.trip.measuredDistance == 300)
    }

    @Test func reclassifyingABusinessTripAsPrivateErasesItsRouteAndVerifyListsTheErasure() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        let trip = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z")
        #expect(!StoredBytes(log: path).coordinates(of: Self.positions()).isEmpty, "the search finds the route before")
        let edited = try await log.editTrip(trip.id, TripChanges(kind: .private), reason: "was a private errand",
                                            context: TestContext.at("2026-11-21T09:00:00Z"), erasingPrivateRoutes: true)
        #expect(edited.kind == .private)
        #expect(edited.route == .erased)
        #expect(edited.startPosition == nil && edited.endPosition == nil)
        #expect(edited.distance == trip.distance && edited.odometerEnd == trip.odometerEnd)
        #expect(try await log.track(trip.id).isEmpty)
        let leftovers = StoredBytes(log: path).coordinates(of: Self.positions())
        #expect(leftovers.isEmpty, "\(leftovers.prefix(5))")
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
        let erasure = try #require(report.erasures.first)
        #expect(report.erasures.count == 1)
        #expect(erasure.target == .routes)
        #expect(erasure.trips == [trip.id])
        #expect(erasure.trackPoints == 601)
        #expect(erasure.user == TestContext.user)
        #expect(erasure.reason == "was a private errand")
        #expect(erasure.chainRecords == 3, "the trip's records: opened, closed, reclassified")
    }

    @Test func aReclassificationWithoutPrivacyModeKeepsTheRoute() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z")
        let edited = try await log.editTrip(trip.id, TripChanges(kind: .private), reason: "private",
                                            context: TestContext.at("2026-11-21T09:00:00Z"))
        #expect(edited.route == .recorded)
        #expect(try await log.track(trip.id).first?.count == 601)
    }

    @Test func routesBeforeADateGoAndTheEntriesAndNewerRoutesStay() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        let old = try await recordTrip(in: log, start: "2026-10-20T08:00:00Z")
        let north = Coordinate(latitude: 58.38, longitude: 26.72)
        let recent = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z", origin: north)
        let erasure = try await log.erase(EraseParams(target: .routes, before: CivilDate(year: 2026, month: 11, day: 1)!,
                                                      reason: "card cleanup"),
                                          retention: RetentionPolicy(), context: TestContext.at("2026-11-21T09:00:00Z"))
        #expect(erasure.done)
        #expect(erasure.trips == [old.id])
        #expect(erasure.trackPoints == 601)
        let trips = try await log.trips(dates: nil)
        #expect(trips.map(\.route) == [.erased, .recorded])
        #expect(trips.map(\.distance) == [old.distance, recent.distance])
        #expect(try await log.track(recent.id).first?.count == 601)
        let stored = StoredBytes(log: path)
        #expect(stored.coordinates(of: Self.positions()).isEmpty, "\(stored.coordinates(of: Self.positions()).prefix(5))")
        #expect(!stored.coordinates(of: Self.positions(origin: north)).isEmpty, "the newer route is still there")
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
        #expect(report.erasures.map(\.reason) == ["card cleanup"])
    }

    @Test func aDryRunCountsAndChangesNothing() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await recordTrip(in: log, kind: .private, purpose: nil, start: "2026-11-20T08:00:00Z")
        let head = try await log.chainHead()
        let erasure = try await log.erase(EraseParams(target: .routes, privateOnly: true, dryRun: true),
                                          retention: RetentionPolicy(), context: TestContext.at("2026-11-21T09:00:00Z"))
        #expect(!erasure.done)
        #expect(erasure.trips == [trip.id])
        #expect(erasure.trackPoints == 601)
        #expect(erasure.chainRecord == nil)
        #expect(try await log.chainHead() == head)
        #expect(try await log.track(trip.id).first?.count == 601)
    }

    @Test func nothingToEraseIsSaidAndWritesNothing() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        _ = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z")
        let head = try await log.chainHead()
        let erasure = try await log.erase(EraseParams(target: .routes, privateOnly: true),
                                          retention: RetentionPolicy(), context: TestContext.at("2026-11-21T09:00:00Z"))
        #expect(!erasure.done)
        #expect(erasure.notes.first?.hasPrefix("nothing to erase") == true)
        #expect(try await log.chainHead() == head)
    }

    @Test func theProfileErasureLeavesNoNameInTheFileAndKeepsTheTrips() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        let context = TestContext.at("2026-11-20T07:00:00Z")
        _ = try await log.setProfile(ProfileChanges(driver: "Mari Maasikas", plate: "481 BKS", company: "Maasikas OÜ"),
                                     reason: nil, context: context)
        _ = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z")
        _ = try await log.setProfile(ProfileChanges(driver: "Mari Kask-Maasikas"), reason: "married", context: context)
        _ = try await recordTrip(in: log, start: "2026-11-20T10:00:00Z")
        for name in ["Maasikas", "481 BKS"] { #expect(!StoredBytes(log: path).files(containing: name).isEmpty) }

        let erasure = try await log.erase(EraseParams(target: .profile, reason: "driver left the company"),
                                          retention: RetentionPolicy(), context: TestContext.at("2026-11-21T09:00:00Z"))
        #expect(erasure.done)
        #expect(erasure.revisions == 4)
        for name in ["Maasikas", "481 BKS"] {
            #expect(StoredBytes(log: path).files(containing: name).isEmpty, "\(name)")
        }
        #expect(try await log.trips(dates: nil).count == 2)
        let profile = try await log.profile()
        #expect(profile.driver == nil && profile.plate == nil && profile.company == nil)
        let revisions = try await log.revisions().filter { $0.subject == "profile" }
        #expect(revisions.count == 4)
        #expect(revisions.allSatisfy { $0.valuesErased && $0.oldValue == nil && $0.newValue == nil })
        #expect(revisions.last?.reason == "married", "what was changed, when, by whom and why stays")
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
        #expect(report.erasures.map(\.target) == [.profile])
    }

    @Test func everythingGoesAndTheEmptyLogVerifiesAndKeepsWorking() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        let context = TestContext.at("2026-11-20T07:00:00Z")
        _ = try await log.setProfile(ProfileChanges(driver: "Mari Maasikas", vin: "WP0ZZZ99ZTS390000", country: "EE"),
                                     reason: nil, context: context)
        _ = try await log.setOdometer(48_210_000, reason: "initial reading", context: context)
        _ = try await recordTrip(in: log, kind: .private, purpose: nil, start: "2026-11-20T08:00:00Z")

        let erasure = try await log.erase(EraseParams(target: .all, reason: "car sold"), retention: RetentionPolicy(),
                                          context: TestContext.at("2026-11-21T09:00:00Z"))
        #expect(erasure.done)
        #expect(erasure.trackPoints == 601)
        #expect(try await log.trips(dates: nil).isEmpty)
        #expect(try await log.odometer() == nil)
        #expect(try await log.profile() == LogProfile())
        let stored = StoredBytes(log: path)
        #expect(stored.coordinates(of: Self.positions()).isEmpty, "\(stored.coordinates(of: Self.positions()).prefix(5))")
        #expect(stored.files(containing: "Maasikas").isEmpty)
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
        #expect(report.chainRecords == 1)
        #expect(report.erasures.map(\.target) == [.all])

        let next = try await recordTrip(in: log, start: "2026-11-22T08:00:00Z")
        #expect(next.id == 1, "numbering starts again, as after installation")
        #expect(try await log.verify().isIntact)
    }

    @Test func aBusinessTripInsideRetentionKeepsTheLogAndTheErrorSaysUntilWhen() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await recordTrip(in: log, start: "2026-03-02T08:00:00Z")
        let head = try await log.chainHead()
        let retention = RetentionPolicy(years: 7)
        await #expect {
            _ = try await log.erase(EraseParams(target: .all), retention: retention,
                                    context: TestContext.at("2026-11-21T09:00:00Z"))
        } throws: { error in
            guard case StoreError.retained(let id, let date, let count, let until, let years) = error else { return false }
            return id == trip.id && date == CivilDate(year: 2026, month: 3, day: 2) && count == 1
                && until == CivilDate(year: 2033, month: 12, day: 31) && years == 7
                && "\(error)".contains("must be kept until 2033-12-31")
        }
        #expect(try await log.chainHead() == head)
        #expect(try await log.trips(dates: nil).count == 1)

        // Past the period it may go; inside it only when told to ignore it.
        let later = try await log.erase(EraseParams(target: .all, dryRun: true), retention: retention,
                                        context: TestContext.at("2034-01-01T09:00:00Z"))
        #expect(later.trips.isEmpty && later.notes.isEmpty)
        let forced = try await log.erase(EraseParams(target: .all, ignoreRetention: true), retention: retention,
                                         context: TestContext.at("2026-11-21T09:00:00Z"))
        #expect(forced.done)
    }

    @Test func anErasureMadeOutsideTrackdIsCaught() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        let trip = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z")
        let seq = try sqlite3(path, "SELECT MAX(seq) FROM ledger WHERE subject = 'trip' AND ref = '\(trip.id)'")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try sqlite3(path, """
            UPDATE ledger SET payload = NULL WHERE seq = \(seq);
            DELETE FROM track_point WHERE trip_id = \(trip.id);
            UPDATE trip SET start_lat = NULL, start_lon = NULL, end_lat = NULL, end_lon = NULL WHERE id = \(trip.id);
            """)
        let report = try await log.verify()
        #expect(report.problems.map(\.record).contains("chain record \(seq) (trip \(trip.id))"))
        #expect(report.problems.contains { $0.detail.contains("erased outside trackd") }, "\(report.problems)")
    }

    @Test func anErasedRecordAlteredAfterwardsIsCaught() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        let trip = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z")
        _ = try await log.editTrip(trip.id, TripChanges(kind: .private), reason: "private",
                                   context: TestContext.at("2026-11-21T09:00:00Z"), erasingPrivateRoutes: true)
        #expect(try await log.verify().isIntact)
        // The erased record's digest is all that stands for it: changing it breaks the chain there.
        let seq = try sqlite3(path, "SELECT MIN(seq) FROM ledger WHERE payload IS NULL").trimmingCharacters(in: .whitespacesAndNewlines)
        try sqlite3(path, """
            DROP TRIGGER ledger_append_only;
            UPDATE ledger SET payload_sha256 = '\(String(repeating: "0", count: 64))' WHERE seq = \(seq);
            """)
        let report = try await log.verify()
        #expect(report.problems.first?.record.hasPrefix("chain record \(seq) ") == true)
        #expect(report.problems.first?.detail.contains("chain was altered") == true, "\(report.problems)")
    }

    @Test func aLogOfTheFirstChainFormatIsBroughtForwardAndItsOldHeadStillHolds() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        // A log as trackd 0.2 wrote it: schema step 1, records hashed over their text.
        let queue = try DatabaseQueue(path: path)
        try MileageLog.migrator.migrate(queue, upTo: "v1-mileage-log")
        let v1Head = try await queue.write { db -> String in
            var previous = ""
            try db.execute(sql: "UPDATE profile SET driver = 'Jüri Tamm' WHERE id = 1")
            for (subject, ref, payload) in [("profile", "1", "calibration_factor=1.0\ncompany=-\ndriver='Jüri Tamm\nplate=-\ntime_zone='UTC"),
                                            ("revision", "1", "x=1")] {
                let hash = Ledger.digest(previous: previous, subject: subject, ref: ref, payload: payload)
                try db.execute(sql: "INSERT INTO ledger (subject, ref, payload, hash) VALUES (?, ?, ?, ?)",
                               arguments: [subject, ref, payload, hash])
                previous = hash
            }
            try db.execute(sql: """
                INSERT INTO revision (subject, field, old_value, new_value, time, time_source, user) VALUES
                    ('profile', 'driver', NULL, 'Jüri Tamm', '2026-01-01T00:00:00.000Z', 'gps', 'driver')
                """)
            return previous
        }
        try queue.close()

        let log = try MileageLog.open(path: path)
        #expect(try log.appliedMigrations() == ["v1-mileage-log", "v2-erasable-chain", "v3-places", "v4-uplink", "v5-report-mail", "v6-odometer-sources", "v7-vehicle", "v8-country", "v9-rate", "v10-stick-copy", "v11-commute-detour", "v12-car", "v13-rules", "v14-language"])
        let stored = try sqlite3(path, "SELECT v1_hash FROM ledger WHERE seq = 2").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(stored == v1Head)
        let chain = try sqlite3(path, "SELECT payload FROM ledger WHERE subject = 'chain'")
        #expect(chain.contains("v1_head='\(v1Head)\n"))
        // The revision's record ("x=1") does not match its row: verify names it, and nothing else.
        let report = try await log.verify()
        #expect(report.problems.map(\.record) == ["revision 1"], "\(report.problems)")

        // A first-format record altered and re-hashed in the second format alone is caught by its first hash.
        try sqlite3(path, "DROP TRIGGER ledger_append_only; UPDATE ledger SET payload = replace(payload, 'Tamm', 'Kask') WHERE seq = 1")
        let altered = try await log.verify()
        #expect(altered.problems.first?.record == "chain record 1 (profile 1)")
    }
}
