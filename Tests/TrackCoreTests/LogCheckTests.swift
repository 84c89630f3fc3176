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

    @Test(arguments: [Language.german, .estonian])
    func aProfileInGermanOrEstonianHasTheSameFindingsInItsWordsWithTheCommandsAsTyped(language: Language) {
        var profile = LogProfile(plate: "123 ABC", country: .germany)
        profile.language = language
        let english = LogCheck.findings(profile: profile, entries: faultyMonth(), words: .english)
        let findings = LogCheck.findings(profile: profile, entries: faultyMonth())
        #expect(findings.map(\.rule) == english.map(\.rule) && findings.map(\.trip) == english.map(\.trip))
        #expect(findings.count == 6, "\(findings.map(\.rule))")
        // Every problem and reason in the language's words: a word (three letters or more) it shares with the
        // English finding is a name the English quotes too (the month's vague purpose, the law's German terms).
        let names: Set<String> = ["work", "trip", "finanzamt", "abs", "lstr", "aufgesuchte", "geschäftspartner", "reiseziel", "mit", "anschrift"]
        let words = { (text: String) in Set(text.split { !$0.isLetter }.map { $0.lowercased() }.filter { $0.count > 2 }) }
        for (finding, same) in zip(findings, english) {
            let left = words(finding.problem + " " + finding.why).intersection(words(same.problem + " " + same.why)).subtracting(names)
            #expect(left.isEmpty, "\(language): English left in \(finding.problem) / \(finding.why): \(left.sorted())")
        }
        // The commands stay as typed, around the language's values; the figures with a decimal comma.
        let purpose = findings.first { $0.rule == .purposeMissing }
        #expect(purpose?.fix.hasPrefix("trackctl edit 3 --purpose \"") == true && purpose?.fix.contains("--reason \"…\"") == true)
        #expect(purpose?.fix != english.first { $0.rule == .purposeMissing }?.fix, "the value to fill in is the language's")
        let gap = findings.first { $0.rule == .odometerGap }
        #expect(gap?.problem.contains("2,0 km") == true && gap?.problem.contains("1042,0 km") == true, "\(gap?.problem ?? "")")
        #expect(gap?.fix.hasPrefix("trackctl add --distance 2.0 ") == true, "\(gap?.fix ?? "")")
        #expect(CheckWords.of(language).count(2, CheckWords.of(language).rules(.germany)) != CheckWords.english.count(2, CheckWords.english.rules(.germany)))
    }

    @Test func aProfileWithoutALanguageHasItsFindingsInEnglishWhateverItsCountry() {
        let profile = LogProfile(plate: "123 ABC", country: .germany)
        #expect(LogCheck.findings(profile: profile, entries: faultyMonth()) == LogCheck.findings(profile: profile, entries: faultyMonth(), words: .english))
        #expect(LogCheck.findings(profile: profile, entries: faultyMonth()).first?.problem == "the profile names no driver")
    }

    @Test func aTripARuleClassifiedIsQuestionedUntilTheDriverConfirmsIt() {
        var byRule = entry(1, day: 2, start: 1000, km: 10)
        byRule.rule = TripRule(id: 2, text: "Office ↔ Example Ltd")
        byRule.toConfirm = true
        let findings = LogCheck.findings(profile: Self.complete, entries: [byRule])
        #expect(findings.map(\.rule) == [.toConfirm])
        #expect(findings.first?.problem == "classified by rule 'Office ↔ Example Ltd', not confirmed by the driver")
        #expect(findings.first?.fix.hasPrefix("trackctl confirm 1") == true)
        byRule.toConfirm = false
        #expect(LogCheck.findings(profile: Self.complete, entries: [byRule]).isEmpty, "confirmed: nothing to question")
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
        #expect(rules(.unitedKingdom) == ["destination-missing", "postcodes-missing"])
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
        // (HMRC asks the postcodes of each business journey's ends: named places with them.)
        for index in fixed.indices where fixed[index].kind == .business {
            fixed[index].startPlace = TripPlace(id: nil, name: "Office", address: "1 Deansgate, Manchester M3 1AZ")
            fixed[index].endPlace = TripPlace(id: nil, name: "Depot", address: "Unit 4, Trafford Park, M17 1DQ")
        }
        for country in Country.allCases {
            var profile = Self.complete
            profile.country = country
            #expect(LogCheck.findings(profile: profile, entries: fixed).isEmpty, "\(country)")
        }
    }

    @Test func aUKBusinessJourneyNeedsTheStartsAndTheEndsPostcode() {
        var profile = Self.complete
        profile.country = .unitedKingdom
        func problems(start: String?, end: String?, destination: String? = nil) -> [String] {
            var trip = entry(1, day: 2, destination: destination, start: 1000, km: 10)
            trip.startPlace = start.map { TripPlace(id: nil, name: "From", address: $0) }
            trip.endPlace = end.map { TripPlace(id: nil, name: "To", address: $0) }
            return LogCheck.findings(profile: profile, entries: [trip]).filter { $0.rule == .postcodesMissing }.map(\.problem)
        }
        #expect(problems(start: "10 Downing Street, London SW1A 2AA", end: "Old Trafford, Manchester M16 0RA").isEmpty)
        #expect(problems(start: "sw1a2aa", end: nil, destination: "Birmingham B33 8TH").isEmpty, "no space, lower case; a destination's")
        #expect(problems(start: "London", end: "Manchester M16 0RA") == ["business journey without the start's postcode"])
        #expect(problems(start: "GIR 0AA", end: "Manchester") == ["business journey without the end's postcode"])
        #expect(problems(start: nil, end: nil, destination: "Riia 24, Tartu")
                == ["business journey without the start's and the end's postcodes"])
        // Other countries and private trips are not asked.
        var personal = entry(1, day: 2, kind: .private, start: 1000, km: 10)
        personal.purpose = nil
        #expect(LogCheck.findings(profile: profile, entries: [personal]).isEmpty)
    }

    @Test func businessTripsPastTheDayTheRatesAreKnownToAreFoundOnceAndNotAtAnOwnRate() {
        // March 2026 with the UK's rates known to 2026-03-04: trips 3 and 6 (business, on the 4th and the 7th) —
        // only the 7th's is past it; trip 5 is private.
        let table = RateTable(rates: [AllowanceRate(.unitedKingdom, from: march(1), rate: 450, source: "test")],
                              checked: [.unitedKingdom: RateTable.Checked(through: march(4), source: "test")])
        var profile = Self.complete
        profile.country = .unitedKingdom
        var month = [entry(3, day: 4, start: 1000, km: 10), entry(5, day: 6, kind: .private, start: 1010, km: 3),
                     entry(6, day: 7, start: 1013, km: 4), entry(8, day: 9, start: 1017, km: 2)]
        // (Each journey's ends with their postcodes, which HMRC asks too.)
        for index in month.indices {
            month[index].startPlace = TripPlace(id: nil, name: "Office", address: "1 Deansgate, Manchester M3 1AZ")
            month[index].endPlace = TripPlace(id: nil, name: "Depot", address: "Trafford Park, M17 1DQ")
        }
        let found = LogCheck.findings(profile: profile, entries: month, rates: table)
        #expect(found.map(\.rule) == [.rateUnconfirmed])
        #expect(found.first?.trip == TripID(6))
        #expect(found.first?.problem == "2 business trips paid at the last rate known: UK's rates are known to hold only to 2026-03-04")
        #expect(found.first?.fix.hasPrefix("trackctl rates --country UK; a new rate goes") == true)
        // Known to the month's end: nothing; at an employer's own rate: nothing; no checked day at all: found.
        var known = table
        known = RateTable(rates: known.rates, checked: [.unitedKingdom: RateTable.Checked(through: march(31), source: "test")])
        #expect(LogCheck.findings(profile: profile, entries: month, rates: known).isEmpty)
        var own = profile
        own.rate = 400
        #expect(LogCheck.findings(profile: own, entries: month, rates: table).isEmpty)
        var companyCar = profile
        companyCar.car = .company
        #expect(LogCheck.findings(profile: companyCar, entries: month, rates: table).isEmpty, "a company car is paid nothing")
        #expect(LogCheck.findings(profile: profile, entries: month, rates: RateTable(rates: table.rates)).first?.problem
                == "3 business trips paid at the last rate known: the rate table confirms no day of UK's rates")
    }
}
