import Testing
@testable import TrackCore

/// What `trackctl check` finds: exactly the faults put into a month on purpose, for each country, and nothing once
/// they are fixed.
struct LogCheckTests {
    private static let complete = LogProfile(driver: "Anna Tamm", plate: "123 ABC")

    /// A closed entry on 2026-03-`day` from `start` km, `km` long.
    private func entry(_ id: Int64, day: Int, kind: TripKind = .business, purpose: String? = "Site visit, Tartu depot",
                       customer: String? = "Tamm OÜ", destination: String? = "Riia 24, Tartu", start: Double, km: Double,
                       state: TripState = .closed) -> LogTrip {
        LogTrip(id: TripID(id), kind: kind, purpose: purpose, customer: customer, destination: destination, source: .gps,
                state: state, odometerStart: start * 1000, odometerEnd: (start + km) * 1000, distance: km * 1000,
                date: CivilDate(year: 2026, month: 3, day: day))
    }

    private func march(_ day: Int) -> CivilDate { CivilDate(year: 2026, month: 3, day: day)! }

    /// A month with one fault of each kind every log has: a trip unclassified, one without a purpose, one with a
    /// vague one, 2.0 km missing between two trips, 0.5 km counted twice; a deleted entry that would have been faulty.
    private func faultyMonth() -> [LogTrip] {
        [
            entry(1, day: 2, start: 1000, km: 10),
            entry(2, day: 3, kind: .unclassified, purpose: nil, customer: nil, destination: nil, start: 1010, km: 5),
            entry(3, day: 4, purpose: nil, start: 1015, km: 20),
            entry(4, day: 5, purpose: "Work trip.", start: 1035, km: 7),
            entry(5, day: 6, kind: .private, purpose: nil, customer: nil, destination: nil, start: 1044, km: 3),
            entry(6, day: 7, start: 1046.5, km: 4),
            entry(7, day: 8, purpose: nil, start: 1050.5, km: 1, state: .deleted),
        ]
    }

    @Test func everyLogsRulesFindExactlyTheFaultsPutIn() {
        let findings = LogCheck.findings(profile: Self.complete, entries: faultyMonth())
        #expect(findings.map { "\($0.trip.map { "\($0)" } ?? "-") \($0.rule.rawValue)" }
                == ["2 unclassified", "3 purpose-missing", "4 purpose-vague", "5 odometer-gap", "6 odometer-overlap"])
        let gap = findings.first { $0.rule == .odometerGap }
        #expect(gap?.problem == "2.0 km missing before it: trip 4 ends at 1042.0 km, trip 5 starts at 1044.0 km")
        #expect(findings.first { $0.rule == .purposeMissing }?.fix == "trackctl edit 3 --purpose \"what it was for\" --reason \"…\"")
    }

    @Test func eachCountryAddsItsOwnRules() {
        // A business trip with a purpose but without customer and destination, changed 9 days after it.
        let bare = entry(1, day: 2, customer: nil, destination: nil, start: 1000, km: 10)
        let late = [LogCheck.Change(trip: TripID(1), field: "purpose", date: march(11))]
        func rules(_ country: Country?) -> [String] {
            var profile = Self.complete
            profile.country = country
            return LogCheck.findings(profile: profile, entries: [bare], changes: late).map(\.rule.rawValue)
        }
        #expect(rules(nil) == [])
        #expect(rules(.estonia) == [])
        #expect(rules(.germany) == ["customer-missing", "destination-missing", "not-prompt"])
        #expect(rules(.unitedKingdom) == ["destination-missing"])
        #expect(rules(.unitedStates) == ["destination-missing"])
        // Within seven days, Germany has nothing to say about promptness; a named place's address is a destination.
        var placed = bare
        placed.customer = "Tamm OÜ"
        placed.endPlace = TripPlace(id: nil, name: "Depot", address: "Riia 24, Tartu")
        var profile = Self.complete
        profile.country = .germany
        let prompt = [LogCheck.Change(trip: TripID(1), field: "entry", date: march(9))]
        #expect(LogCheck.findings(profile: profile, entries: [placed], changes: prompt).isEmpty)
        let entered = [LogCheck.Change(trip: TripID(1), field: "entry", date: march(10))]
        #expect(LogCheck.findings(profile: profile, entries: [placed], changes: entered).map(\.problem) == ["entered 8 days after the trip"])
    }

    @Test func theProfileNeedsTheDriverAndThePlateAndTheFirstLinkIsToTheEntryBefore() {
        let before = entry(9, day: 1, start: 990, km: 9)
        let findings = LogCheck.findings(profile: LogProfile(), entries: [entry(10, day: 2, start: 1000, km: 10)], before: before)
        #expect(findings.map(\.rule) == [.profileDriver, .profilePlate, .odometerGap])
        #expect(findings.first?.trip == nil)
    }

    @Test func theMonthFixedHasNothingToQuestion() {
        var fixed = faultyMonth()
        fixed[1].kind = .private
        fixed[2].purpose = "Delivery to Tamm OÜ, Tartu"
        fixed[3].purpose = "Tax adviser, annual accounts"
        fixed[4].odometerStart = 1042_000
        fixed[4].odometerEnd = 1046_500
        #expect(LogCheck.findings(profile: Self.complete, entries: fixed).isEmpty)
        for country in Country.allCases {
            var profile = Self.complete
            profile.country = country
            #expect(LogCheck.findings(profile: profile, entries: fixed).isEmpty, "\(country)")
        }
    }
}
