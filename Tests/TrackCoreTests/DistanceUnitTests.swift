import Testing
@testable import TrackCore

/// Kilometres and miles: the log keeps metres, a person reads tenths of either unit.
struct DistanceUnitTests {
    @Test func aMileIsExactlyOneThousandSixHundredAndNinePointThreeFourFourMetres() {
        #expect(DistanceUnit.miles.tenths(16_093.44) == 100)
        #expect(DistanceUnit.kilometres.tenths(16_093.44) == 161)
        #expect(DistanceUnit(name: "Miles") == .miles && DistanceUnit(name: "km") == .kilometres)
        #expect(DistanceUnit(name: "furlongs") == nil)
    }

    @Test func milesPrintedToATenthConvertBackToTheStoredMetresWithinHalfATenth() {
        for metres in stride(from: 0.0, through: 500_000, by: 7_919.3) {
            let tenths = DistanceUnit.miles.tenths(metres)
            let back = Double(tenths) / 10 * DistanceUnit.miles.metres
            #expect(abs(back - metres) <= DistanceUnit.miles.metres / 20 + 1e-6, "\(metres) m → \(tenths)")
        }
    }

    @Test func eachCountryCountsInItsOwnUnitAndCurrency() {
        #expect(Country(code: "gb") == .unitedKingdom)
        #expect(Country(code: "ee") == .estonia)
        #expect(Country(code: "FR") == nil)
        #expect(Country.unitedKingdom.unit == .miles && Country.unitedStates.unit == .miles)
        #expect(Country.germany.unit == .kilometres && Country.estonia.unit == .kilometres)
        #expect(Currency.pound.text(minor: 449_550) == "£4495.50")
        #expect(Currency.euro.text(minor: 5) == "0.05 €")
    }

    @Test func theUKTaxYearStartsOnTheSixthOfApril() {
        let april5 = CivilDate(year: 2026, month: 4, day: 5)!
        let april6 = CivilDate(year: 2026, month: 4, day: 6)!
        #expect(Country.unitedKingdom.taxYear(of: april5) == CivilDate(year: 2025, month: 4, day: 6))
        #expect(Country.unitedKingdom.taxYear(of: april6) == april6)
        #expect(Country.estonia.taxYear(of: april5) == CivilDate(year: 2026, month: 1, day: 1))
    }
}
