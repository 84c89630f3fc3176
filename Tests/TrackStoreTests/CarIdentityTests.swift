import Foundation
import TestSupport
import Testing
import TrackCore
@testable import TrackStore

/// The car the log belongs to: its VIN in the profile, from the first car an OBD-II adapter meets or by hand.
struct CarIdentityTests {
    static let vin = "WP0ZZZ99ZTS390000"
    static let otherVIN = "WVWZZZ1JZXW000001"

    @Test func theFirstCarMetGivesTheLogItsVINWithARevision() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let context = ChangeContext(user: "trackd (car)", time: UTCTime(iso8601: "2026-11-20T07:00:00Z")!, timeSource: "gps")
        #expect(try await log.meetCar(vin: Self.vin, context: context) == .recorded)
        #expect(try await log.profile().vin == Self.vin)
        let revision = try #require(try await log.revisions().last)
        #expect(revision.field == "vin" && revision.oldValue == nil && revision.newValue == Self.vin)
        #expect(revision.user == "trackd (car)" && revision.reason == "read from the car (OBD-II, mode 09)")
        // Met again: the log's car, nothing written.
        #expect(try await log.meetCar(vin: Self.vin, context: context) == .thisCar)
        #expect(try await log.revisions().count == 1)
        #expect(try await log.verify().isIntact)
    }

    @Test func anotherCarIsNamedAndTheLogKeepsItsVIN() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let context = TestContext.at("2026-11-20T07:00:00Z")
        _ = try await log.meetCar(vin: Self.vin, context: context)
        #expect(try await log.meetCar(vin: Self.otherVIN, context: context) == .otherCar(logVIN: Self.vin))
        #expect(try await log.profile().vin == Self.vin)
        // The driver says the log moved to the other car: it is the log's car from then on.
        let profile = try await log.setProfile(ProfileChanges(vin: Self.otherVIN), reason: "new company car", context: context)
        #expect(profile.vin == Self.otherVIN)
        #expect(try await log.meetCar(vin: Self.otherVIN, context: context) == .thisCar)
        #expect(try await log.revisions().last?.oldValue == Self.vin)
        #expect(try await log.verify().isIntact)
    }

    @Test func aVINSetByHandMustBeOneAndAnEmptyOneClearsIt() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let context = TestContext.at("2026-11-20T07:00:00Z")
        for wrong in ["WP0ZZZ99ZTS39000", "WP0ZZZ99ZTS39000O", "wp0zzz99zts390000"] {
            await #expect(throws: StoreError.self, "\(wrong)") {
                _ = try await log.setProfile(ProfileChanges(vin: wrong), reason: nil, context: context)
            }
        }
        await #expect(throws: StoreError.self) { _ = try await log.meetCar(vin: "NOT A VIN", context: context) }
        _ = try await log.setProfile(ProfileChanges(vin: Self.vin), reason: nil, context: context)
        _ = try await log.setProfile(ProfileChanges(vin: ""), reason: "the car was sold", context: context)
        #expect(try await log.profile().vin == nil)
        // Without one, the next car met is the log's.
        #expect(try await log.meetCar(vin: Self.otherVIN, context: context) == .recorded)
    }

    @Test func theProfilesErasureTakesTheVINFromTheFileAndTheHistory() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        _ = try await log.meetCar(vin: Self.vin, context: TestContext.at("2026-11-20T07:00:00Z"))
        _ = try await recordTrip(in: log, start: "2026-11-20T08:00:00Z")
        #expect(!StoredBytes(log: path).files(containing: Self.vin).isEmpty)
        let erasure = try await log.erase(EraseParams(target: .profile, reason: "car sold"), retention: RetentionPolicy(),
                                          context: TestContext.at("2026-11-21T09:00:00Z"))
        #expect(erasure.done && erasure.revisions == 1)
        #expect(try await log.profile().vin == nil)
        #expect(StoredBytes(log: path).files(containing: Self.vin).isEmpty)
        #expect(try await log.verify().isIntact)
    }
}
