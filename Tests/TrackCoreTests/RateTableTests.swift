import TestSupport
import Testing
@testable import TrackCore

/// The rate files: the package's table as shipped, a user's rows added to it or replacing its own, how far each
/// country's rates are known, and a wrong line refused with its file and line.
struct RateTableTests {
    @Test func theShippedTableHasEveryCountrysRatesInDateOrderEachWithItsSourceAndLine() throws {
        let table = try ShippedRates.table()
        for country in Country.allCases {
            let rates = table.rates(of: country)
            #expect(!rates.isEmpty, "\(country)")
            #expect(rates.map(\.from) == rates.map(\.from).sorted(), "\(country)")
            #expect(rates.allSatisfy { !$0.source.isEmpty && $0.origin?.hasPrefix("\(ShippedRates.path):") == true }, "\(country)")
            #expect(table.checked[country] != nil, "\(country): how far its rates are known")
        }
        // HMRC's rate of May 2026, backdated to the tax year's first day.
        let uk = try #require(table.inForce(for: .unitedKingdom, on: day("2026-04-06")))
        #expect(uk.rate == 550 && uk.reducedRate == 250 && uk.threshold == 10_000)
        #expect(table.inForce(for: .unitedKingdom, on: day("2026-04-05"))?.rate == 450)
        #expect(table.inForce(for: .estonia, on: day("2025-01-01"))?.monthlyCap == 55_000)
    }

    @Test func aUsersRowAddsToThePackagesOrReplacesTheOneOfItsCountryAndDay() throws {
        let package = """
            rate UK 2011-04-06 0.45 after 10000 0.25 source ITEPA 2003 s. 230
            checked UK 2026-04-05 source the tax year 2025-26
            rate US 2026-01-01 0.725 source IRS
            """
        let user = """
            # An accountant's rows.
            rate UK 2026-04-06 0.55 after 10000 0.25 source HMRC, May 2026
            rate US 2026-01-01 0.70 source our own reading of the notice
            checked UK 2027-04-05 source the tax year 2026-27
            checked UK 2020-01-01 source an older note, which does not shorten what is known
            """
        let read = RateTable.reading([("/usr/share/trackd/rates.conf", package), ("/etc/trackd/rates.d/ours.conf", user)])
        #expect(read.refused.isEmpty)
        let table = read.table
        #expect(table.rates(of: .unitedKingdom).map(\.rate) == [450, 550])
        #expect(table.inForce(for: .unitedKingdom, on: day("2026-04-10"))?.origin == "/etc/trackd/rates.d/ours.conf:2")
        #expect(table.rates(of: .unitedStates).map(\.rate) == [700], "replaced, not added")
        #expect(table.checked[.unitedKingdom]?.through == day("2027-04-05"))
        #expect(!table.isUnconfirmed(.unitedKingdom, on: day("2027-04-05")))
        #expect(table.isUnconfirmed(.unitedKingdom, on: day("2027-04-06")))
        #expect(table.isUnconfirmed(.unitedStates, on: day("2026-01-01")), "no checked line for the US")
    }

    @Test func aWrongLineIsRefusedWithItsFileAndLineAndItsFileIsLeftOutWhole() {
        let cases: [(String, String)] = [
            ("rate UK 2026-04-06 0,6x source typed in a hurry", "'0,6x' is not a rate"),
            ("rate FR 2026-01-01 0.60 source France", "'FR' is not a country trackd knows the rules of"),
            ("rate UK 2026-02-30 0.60 source a day that is not", "'2026-02-30' is not a day"),
            ("rate UK 2026-04-06 0.60", "no source"),
            ("rate UK 2026-04-06 0.60 source", "`source` has no text after it"),
            ("rate UK 2026-04-06 0.60 after 10000 source HMRC", "`after` needs the units and the rate past them"),
            ("rate UK 2026-04-06 0.60 after lots 0.25 source HMRC", "'lots' is not a number of mi"),
            ("rate EE 2026-01-01 0.60 cap 550,00 source MTA", "'550,00' is not an amount"),
            ("rate EE 2026-01-01 0.60 per km source MTA", "'per' is not known here"),
            ("rates UK 2026-04-06 0.60 source HMRC", "'rates' is not a line trackd knows"),
            ("checked UK 2027-04-05 maybe source HMRC", "takes nothing more: 'maybe'"),
            ("rate UK 2026-04-06 0.60 source A\nrate GB 2026-04-06 0.61 source B", "a second rate for UK from 2026-04-06 (the first is on line 2)"),
        ]
        for (line, problem) in cases {
            let text = "# a comment\n" + line + "\n"
            let read = RateTable.reading([("/etc/trackd/rates.d/good.conf", "rate UK 2011-04-06 0.45 source ITEPA\n"),
                                          ("/etc/trackd/rates.d/wrong.conf", text)])
            let refused = read.refused.first
            #expect(read.refused.count == 1, "\(line)")
            #expect(refused?.file == "/etc/trackd/rates.d/wrong.conf", "\(line)")
            let expectedLine = line.contains("\n") ? 3 : 2
            #expect(refused?.line == expectedLine, "\(line): \(String(describing: refused))")
            #expect(refused?.problem.contains(problem) == true, "\(line): \(String(describing: refused))")
            #expect(refused?.description.hasPrefix("/etc/trackd/rates.d/wrong.conf:\(expectedLine): ") == true)
            // Nothing of the wrong file counts; the good one does.
            #expect(read.table.rates.map(\.rate) == [450], "\(line)")
        }
    }

    @Test func blankLinesCommentsTabsAndWindowsLineEndsAreRead() throws {
        let text = "\r\n# comment\r\n\trate\tEE 2025-01-01 0.50 cap 550 source  Tulumaksuseadus  § 13 \r\n\n"
        let lines = try RateFileLine.parse(text, file: "t.conf")
        guard case .rate(let rate) = try #require(lines.first) else {
            Issue.record("not a rate: \(lines)")
            return
        }
        #expect(lines.count == 1)
        #expect(rate.monthlyCap == 55_000 && rate.rate == 500 && rate.source == "Tulumaksuseadus  § 13" && rate.origin == "t.conf:3")
    }
}
