import TestSupport
import Testing
import TrackCore
@testable import TrackStore

/// The profile's language: set, cleared, refused when trackd does not speak it, in the history and the chain.
struct ProfileLanguageTests {
    @Test func aLanguageIsSetAndClearedInTheHistoryAndCoveredByTheChain() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let context = TestContext.at("2026-11-20T08:00:00Z")
        #expect(try await log.profile().language == nil)

        let german = try await log.setProfile(ProfileChanges(language: "DE"), reason: "Fahrer aus Köln", context: context)
        #expect(german.language == .german)
        #expect(try await log.profile().language == .german, "read back from the file")
        let none = try await log.setProfile(ProfileChanges(language: ""), reason: nil, context: context)
        #expect(none.language == nil)
        _ = try await log.setProfile(ProfileChanges(language: "et"), reason: nil, context: context)

        let history = try await log.revisions().map { "\($0.field) \($0.oldValue ?? "-") → \($0.newValue ?? "-")" }
        #expect(history == ["language - → de", "language de → -", "language - → et"], "\(history)")
        #expect(try await log.verify().isIntact)
        _ = try sqlite3(folder.file("trackd.sqlite"), "UPDATE profile SET language = 'en' WHERE id = 1")
        #expect(!(try await log.verify()).isIntact, "the chain covers the language")
    }

    @Test func aLanguageTrackdDoesNotSpeakIsRefusedWithTheOnesItDoes() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let context = TestContext.at("2026-11-20T08:00:00Z")
        await #expect { try await log.setProfile(ProfileChanges(language: "fr"), reason: nil, context: context) }
            throws: { "\($0)".contains("'fr' is not a language trackd speaks: en, de or et") }
        #expect(try await log.profile() == LogProfile(), "nothing changed")
        #expect(try await log.revisions().isEmpty)
    }

}
