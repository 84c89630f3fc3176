import TestSupport
import Testing
import TrackCore
@testable import TrackStore

/// The profile's country and unit: set, cleared, refused when unknown, in the history and the chain.
struct ProfileCountryTests {
    @Test func aCountrySetsTheUnitAProfileMayOverrideAndBothAreInTheHistoryAndTheChain() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let context = TestContext.at("2026-11-20T08:00:00Z")
        #expect(try await log.profile().country == nil)
        #expect(try await log.profile().distanceUnit == .kilometres, "no country: kilometres, as before")

        let british = try await log.setProfile(ProfileChanges(country: "gb"), reason: "moved to Leeds", context: context)
        #expect(british.country == .unitedKingdom && british.unit == nil && british.distanceUnit == .miles)
        let own = try await log.setProfile(ProfileChanges(unit: "km"), reason: nil, context: context)
        #expect(own.country == .unitedKingdom && own.distanceUnit == .kilometres, "the profile's own unit wins")
        let back = try await log.setProfile(ProfileChanges(unit: ""), reason: nil, context: context)
        #expect(back.unit == nil && back.distanceUnit == .miles)
        #expect(try await log.profile() == back)

        let history = try await log.revisions().map { "\($0.field) \($0.oldValue ?? "-") → \($0.newValue ?? "-")" }
        #expect(history == ["country - → UK", "unit - → km", "unit km → -"], "\(history)")
        #expect(try await log.verify().isIntact)
        // The chain covers them: changed behind trackd's back, the log no longer verifies.
        _ = try sqlite3(folder.file("trackd.sqlite"), "UPDATE profile SET country = 'US' WHERE id = 1")
        #expect(!(try await log.verify()).isIntact)
    }

    @Test func anUnknownCountryOrUnitIsRefusedWithTheOnesThatExist() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let context = TestContext.at("2026-11-20T08:00:00Z")
        await #expect { try await log.setProfile(ProfileChanges(country: "FR"), reason: nil, context: context) }
            throws: { "\($0)".contains("'FR' is not a country trackd knows the rules of: EE, DE, UK or US") }
        await #expect { try await log.setProfile(ProfileChanges(unit: "furlongs"), reason: nil, context: context) }
            throws: { "\($0)".contains("'furlongs' is not a unit: km or mi") }
        #expect(try await log.profile() == LogProfile(), "nothing changed")
        #expect(try await log.revisions().isEmpty)
    }
}
