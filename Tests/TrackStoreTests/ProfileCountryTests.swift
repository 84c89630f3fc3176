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

    @Test func anEmployersOwnRateMakesEveryAmountWithoutTheTablesCapAndIsInTheHistoryAndTheChain() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let context = TestContext.at("2026-11-20T08:00:00Z")
        await #expect { try await log.setProfile(ProfileChanges(rate: "0.40"), reason: nil, context: context) }
            throws: { "\($0)".contains("an own rate is paid in a country's currency per its unit: set --country too") }
        await #expect { try await log.setProfile(ProfileChanges(country: "EE", rate: "0.4567"), reason: nil, context: context) }
            throws: { "\($0)".contains("'0.4567' is not a rate") }
        let own = try await log.setProfile(ProfileChanges(country: "EE", rate: "0,6"), reason: "contract 2026", context: context)
        #expect(own.rate == 600)
        // 1,200 km of business in a month: the table pays 0.50 €/km up to Estonia's 550.00 €; the employer 0.60 €/km, uncapped.
        let trips = [LogTrip(id: 1, kind: .business, purpose: "Site", source: .manual, state: .closed, distance: 600_000,
                             date: CivilDate(year: 2026, month: 11, day: 3)),
                     LogTrip(id: 2, kind: .business, purpose: "Site", source: .manual, state: .closed, distance: 600_000,
                             date: CivilDate(year: 2026, month: 11, day: 4))]
        #expect(MileageAllowance(country: .estonia, entries: trips, rates: try ShippedRates.table()).total(from: CivilDate(year: 2026, month: 11, day: 1)!,
                                                                          through: CivilDate(year: 2026, month: 11, day: 30)!) == 55_000)
        let paid = MileageAllowance(country: .estonia, entries: trips, rates: try ShippedRates.table(), ownRate: own.rate)
        #expect(paid.lines.map(\.amount) == [36_000, 36_000])
        // One rule, with no first day of its own (its wording: ReportLabelsTests).
        let rates = ReportAllowance(paid, from: nil, through: nil).rates
        #expect(rates.map(\.rate) == [600] && rates.first?.from == nil && rates.first?.monthlyCap == nil)
        let back = try await log.setProfile(ProfileChanges(rate: ""), reason: "back to the table", context: context)
        #expect(back.rate == nil && back.country == .estonia)
        let history = try await log.revisions().map { "\($0.field) \($0.oldValue ?? "-") → \($0.newValue ?? "-")" }
        #expect(history == ["country - → EE", "rate - → 600", "rate 600 → -"], "\(history)")
        #expect(try await log.verify().isIntact)
        _ = try await log.setProfile(ProfileChanges(rate: "0.6"), reason: nil, context: context)
        _ = try sqlite3(folder.file("trackd.sqlite"), "UPDATE profile SET rate = 900 WHERE id = 1")
        #expect(!(try await log.verify()).isIntact, "the chain covers the rate")
    }

    @Test func aRateIsReadExactlyAsTypedOrRefused() {
        #expect(AllowanceRate.thousandths("0.42") == 420 && AllowanceRate.thousandths("0,725") == 725)
        #expect(AllowanceRate.thousandths("1") == 1000 && AllowanceRate.thousandths("9.999") == 9999)
        for refused in ["", "0", "0.000", "10", "0.1234", "-0.3", "0.3€", ".5", "5.", "1e-1", "0.4.2"] {
            #expect(AllowanceRate.thousandths(refused) == nil, "\(refused)")
        }
    }
}
