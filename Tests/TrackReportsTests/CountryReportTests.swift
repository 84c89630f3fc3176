import Foundation
import TestSupport
import Testing
import TrackCore
@testable import TrackReports

/// The report of a log kept for a country: in its unit, with each business trip's allowance and what `check` finds.
struct CountryReportTests {
    /// The October fixture as a UK log: miles, pounds, and the fixture's business trip without a purpose.
    private func britishReport() -> MileageReport {
        countryReport(.unitedKingdom)
    }

    /// The October fixture as `country`'s log, with its allowance, findings and tax year (from the month's trips).
    private func countryReport(_ country: Country) -> MileageReport {
        var report = ReportFixture.report()
        report.profile.country = country
        // Dated as the log dates them (the fixture leaves the date to the start time).
        let calendar = try! LocalCalendar(profile: report.profile)
        for index in report.trips.indices where report.trips[index].trip.date == nil {
            let trip = report.trips[index].trip
            report.trips[index].trip.date = (trip.start ?? trip.end).map(calendar.date(of:))
        }
        let entries = report.trips.map(\.trip)
        let through = report.until!.previous
        report.allowance = ReportAllowance(MileageAllowance(country: country, entries: entries, rates: try! ShippedRates.table()),
                                           from: report.from, through: through)
        report.findings = LogCheck.findings(profile: report.profile, entries: entries)
        report.years = [YearSummary(entries: entries, from: country.taxYear(of: through), through: through,
                                    unit: report.profile.distanceUnit, amount: report.allowance?.taxYears.last?.total)]
        return report
    }

    /// The cells of the trip table's body rows, by the header's labels.
    private func tripCells(_ root: ParsedElement) throws -> (heads: [String], rows: [[String: String]], totals: [[String: String]]) {
        let table = try #require(root.descendants("table").first { $0.classes.contains("trips") })
        let heads = table.descendants("th").map(\.text)
        let rows = try #require(table.child("tbody")).children("tr").map { row in
            Dictionary(uniqueKeysWithValues: zip(heads, row.children("td").map(\.text)))
        }
        // The totals' cells: the label spans the columns before the first figure.
        let totals = try #require(table.child("tfoot")).children("tr").map { row -> [String: String] in
            var cells: [String: String] = ["kind": row.attributes["data-kind"] ?? ""]
            var column = 0
            for cell in row.children("td") {
                let span = Int(cell.attributes["colspan"] ?? "1") ?? 1
                if span == 1 { cells[heads[column]] = cell.text }
                column += span
            }
            return cells
        }
        return (heads, rows, totals)
    }

    @Test func aGermanReportIsAFahrtenbuchInGermanWithBusinessAndPrivateKilometresApart() throws {
        let report = countryReport(.germany)
        let html = try HTMLReport.render(report)
        let root = try XMLTree.parse(html)
        #expect(root.attributes["lang"] == "de")
        #expect(root.descendants("h1").map(\.text) == ["Fahrtenbuch"])
        #expect(root.descendants("p").first { $0.classes.contains("period") }?.text == "Oktober 2026 (2026-10-01 bis 2026-10-31)")
        #expect(root.child("body")?.classes == ["wide"], "fifteen columns print on landscape pages")
        let (heads, rows, totals) = try tripCells(root)
        #expect(heads == ["Nr.", "Datum", "Beginn", "Ende", "km-Stand Beginn", "km-Stand Ende", "Reiseziel mit Anschrift",
                          "Reisezweck", "Aufgesuchte Geschäftspartner", "Umwege", "Dienstlich km", "Privat km",
                          "Wohnung–Arbeitsstätte km", "Betrag", "Anmerkungen"])
        // Each trip's kilometres in its kind's column, with a decimal comma; its odometer readings likewise.
        for (row, entry) in zip(rows, report.trips) {
            let trip = entry.trip
            let tenths = trip.reportedTenths
            let distance = DistanceUnit.text(tenths: tenths.distance).replacingOccurrences(of: ".", with: ",")
            #expect(row["Dienstlich km"] == (trip.kind == .business ? distance : ""), "trip \(trip.id): \(row)")
            #expect(row["Privat km"] == (trip.kind == .private ? distance : ""), "trip \(trip.id): \(row)")
            if let start = tenths.start {
                #expect(row["km-Stand Beginn"]?.hasPrefix(DistanceUnit.text(tenths: start).replacingOccurrences(of: ".", with: ",")) == true)
            }
            #expect(row["Reisezweck"] == (trip.purpose ?? ""))
            #expect(row["Aufgesuchte Geschäftspartner"] == (trip.customer ?? ""))
        }
        let all = try #require(totals.first { $0["kind"] == "all" })
        #expect(all["Dienstlich km"] == DistanceUnit.text(tenths: report.totals.business).replacingOccurrences(of: ".", with: ","))
        #expect(all["Privat km"] == DistanceUnit.text(tenths: report.totals.private).replacingOccurrences(of: ".", with: ","))
        #expect(html.contains("<td colspan=\"10\">Alle Fahrten (\(report.totals.trips) Fahrten)</td>"), "\(totals)")
        // Kinds, notes and the other sections in German.
        #expect(html.contains("Reisekosten (Deutschland)") && html.contains("Änderungsprotokoll") && html.contains("Karten"))
        // A row a person changed after it was written says so (trip 41 reclassified, 44 deleted, by jyri); the others
        // do not, and neither does a form other than the Fahrtenbuch.
        let changed = Set(report.revisions.compactMap(\.tripID))
        #expect(changed == [41, 44])
        for (row, entry) in zip(rows, report.trips) {
            let marked = row["Anmerkungen"]?.contains("nachträglich geändert (siehe Änderungsprotokoll)") == true
            #expect(marked == changed.contains(entry.trip.id), "trip \(entry.trip.id): \(row["Anmerkungen"] ?? "")")
        }
        var british = report
        british.profile.country = .unitedKingdom
        #expect(!(try HTMLReport.render(british)).contains("changed after it was written"))
        // A business trip without its business partner: the check section names the rule in German.
        var missing = report
        let business = try #require(missing.trips.indices.first { missing.trips[$0].trip.kind == .business && missing.trips[$0].trip.counts })
        missing.trips[business].trip.customer = nil
        missing.findings = LogCheck.findings(profile: missing.profile, entries: missing.trips.map(\.trip))
        #expect(missing.findings?.contains { $0.rule == .customerMissing && $0.trip == missing.trips[business].trip.id } == true)
        let missingHTML = try HTMLReport.render(missing)
        #expect(missingHTML.contains("Geschäftspartner fehlt — "), "\(missingHTML)")
        #expect(!html.contains("Geschäftspartner fehlt — "), "the fixture's trips all name their partner")
        #expect(root.descendants("figcaption").allSatisfy { $0.text.hasPrefix("Fahrt ") })
        for english in ["Mileage log", "Odometer start", "Purpose", "Notes", "All trips", "Change history", "This period"] {
            #expect(!html.contains(english), "\(english) in the German report")
        }
    }

    @Test func aGermanReportPutsCommutesInTheirOwnColumnAndDetoursInTheirs() throws {
        var report = countryReport(.germany)
        let privateTrips = report.trips.indices.filter { report.trips[$0].trip.kind == .private && report.trips[$0].trip.counts }
        let commute = try #require(privateTrips.first, "the fixture has a private trip")
        let business = try #require(report.trips.indices.first { report.trips[$0].trip.kind == .business && report.trips[$0].trip.counts })
        report.trips[commute].trip.commute = true
        report.trips[business].trip.detour = "3 km über die Bank (Einzahlung)"
        let year = try #require(report.years.last)
        report.years = [YearSummary(entries: report.trips.map(\.trip), from: year.from, through: year.through,
                                    unit: .kilometres, amount: year.amount)]
        let html = try HTMLReport.render(report)
        let root = try XMLTree.parse(html)
        let (_, rows, totals) = try tripCells(root)
        func text(_ tenths: Int64) -> String { DistanceUnit.text(tenths: tenths).replacingOccurrences(of: ".", with: ",") }
        // The commute: its kilometres under Wohnung–Arbeitsstätte, not under Privat; the detour in Umwege.
        let commuteTenths = report.trips[commute].trip.reportedTenths.distance
        #expect(rows[commute]["Wohnung–Arbeitsstätte km"] == text(commuteTenths), "\(rows[commute])")
        #expect(rows[commute]["Privat km"] == "")
        #expect(rows[business]["Umwege"] == "3 km über die Bank (Einzahlung)")
        for (index, row) in rows.enumerated() where index != commute {
            #expect(row["Wohnung–Arbeitsstätte km"] == "", "trip \(report.trips[index].trip.id)")
            if index != business { #expect(row["Umwege"] == "") }
        }
        // The totals by hand: the other private trips, the commutes, and each under its column in the line of all.
        let counted = report.trips.map(\.trip).filter(\.counts)
        let otherPrivate = counted.filter { $0.kind == .private && !$0.commute }.reduce(Int64(0)) { $0 + $1.reportedTenths.distance }
        let privateLine = try #require(totals.first { $0["kind"] == "private" })
        let commuteLine = try #require(totals.first { $0["kind"] == "commute" })
        let all = try #require(totals.first { $0["kind"] == "all" })
        #expect(privateLine["Privat km"] == text(otherPrivate) && privateLine["Wohnung–Arbeitsstätte km"] == "")
        #expect(commuteLine["Wohnung–Arbeitsstätte km"] == text(commuteTenths) && commuteLine["Privat km"] == "")
        #expect(all["Privat km"] == text(otherPrivate) && all["Wohnung–Arbeitsstätte km"] == text(commuteTenths))
        #expect(html.contains("Summe Wohnung–Arbeitsstätte (1 Fahrt)"))
        // The year's summary keeps them apart too, and all of it still adds up.
        let section = try #require(root.descendants("section").first { $0.classes.contains("year") })
        let lines = Dictionary(uniqueKeysWithValues: section.descendants("tr").map { ($0.attributes["class"] ?? "", $0.child("td")?.text ?? "") })
        #expect(lines["private"] == text(otherPrivate) + " km" && lines["commute"] == text(commuteTenths) + " km")
        #expect(lines["all"] == text(report.totals.all) + " km")
        // Elsewhere a commute is a private trip that says so.
        report.profile.country = .unitedKingdom
        let english = try XMLTree.parse(try HTMLReport.render(report))
        let (_, englishRows, englishTotals) = try tripCells(english)
        #expect(englishRows[commute]["Kind"] == "private (commute)")
        #expect(!englishTotals.contains { $0["kind"] == "commute" })
        func yearLines(_ root: ParsedElement) throws -> [String: String] {
            let section = try #require(root.descendants("section").first { $0.classes.contains("year") })
            return Dictionary(uniqueKeysWithValues: section.descendants("tr").map { ($0.attributes["class"] ?? "", $0.child("td")?.text ?? "") })
        }
        #expect(try yearLines(english)["commute"] == nil, "HMRC's form has no commuting line")
        // Schedule C asks business, commuting and other miles apart (Part IV, line 44): the US year's summary too.
        report.profile.country = .unitedStates
        // (The fixture's year was counted in tenths of a kilometre; the US profile prints them as miles.)
        let american = try yearLines(try XMLTree.parse(try HTMLReport.render(report)))
        #expect(american["commute"] == text(commuteTenths).replacingOccurrences(of: ",", with: ".") + " mi", "\(american)")
        #expect(american["private"] == text(otherPrivate).replacingOccurrences(of: ",", with: ".") + " mi", "\(american)")
    }

    @Test func anEstonianReportIsASõidupäevikInEstonian() throws {
        let report = countryReport(.estonia)
        let html = try HTMLReport.render(report)
        let root = try XMLTree.parse(html)
        #expect(root.attributes["lang"] == "et")
        #expect(root.descendants("h1").map(\.text) == ["Sõidupäevik"])
        #expect(root.descendants("p").first { $0.classes.contains("period") }?.text == "oktoober 2026 (2026-10-01 kuni 2026-10-31)")
        let (heads, rows, _) = try tripCells(root)
        #expect(heads == ["Nr", "Kuupäev", "Algus", "Lõpp", "Odomeeter alguses", "Odomeeter lõpus", "Läbisõit km",
                          "Hüvitis", "Liik", "Sõidu eesmärk", "Klient / sihtkoht / kust → kuhu", "Märkused"])
        for (row, entry) in zip(rows, report.trips) {
            let kind = ["business": "ametisõit", "private": "erasõit", "unclassified": "liigitamata"][entry.trip.kind.rawValue]
            #expect(row["Liik"] == kind)
            #expect(row["Läbisõit km"] == DistanceUnit.text(tenths: entry.trip.reportedTenths.distance).replacingOccurrences(of: ".", with: ","))
        }
        #expect(html.contains("Sõiduhüvitis (Eesti)") && html.contains("Muudatuste ajalugu"))
        #expect(!html.contains("Mileage log") && !html.contains("Change history"))
    }

    @Test func theYearsSummaryGivesTheDistancesTheBusinessShareAndTheAmount() throws {
        let report = countryReport(.germany)
        let year = try #require(report.years.last)
        #expect(report.years.count == 1 && year.from == CivilDate(year: 2026, month: 1, day: 1) && year.through == CivilDate(year: 2026, month: 10, day: 31))
        let root = try XMLTree.parse(try HTMLReport.render(report))
        let section = try #require(root.descendants("section").first { $0.classes.contains("year") })
        #expect(section.child("h2")?.text == "Steuerjahr vom 2026-01-01 bis 2026-10-31")
        let lines = Dictionary(uniqueKeysWithValues: section.descendants("tr").map { ($0.attributes["class"] ?? "", $0.child("td")?.text ?? "") })
        let totals = report.totals
        // The month is the year so far here: the year's figures are the month's.
        #expect(lines["business"] == DistanceUnit.text(tenths: totals.business).replacingOccurrences(of: ".", with: ",") + " km")
        #expect(lines["all"] == DistanceUnit.text(tenths: totals.all).replacingOccurrences(of: ".", with: ",") + " km")
        // The share by hand: business tenths over all, to a tenth of a percent, half up.
        let share = (Double(totals.business) / Double(totals.all) * 1000).rounded(.toNearestOrAwayFromZero)
        #expect(lines["share"] == DistanceUnit.text(tenths: Int64(share)).replacingOccurrences(of: ".", with: ",") + " %")
        #expect(lines["amount"] == report.allowance?.taxYears.last.map { Currency.euro.text(minor: $0.total).replacingOccurrences(of: ".", with: ",") })
    }


    @Test func aUKReportsCSVIsInMilesThatConvertBackToTheStoredMetres() throws {
        let report = britishReport()
        let csv = try ParsedCSV(report)
        #expect(csv.header == CSVExport.columns(for: .miles))
        #expect(csv.header.contains("distance_mi") && csv.header.contains("odometer_start_mi"))
        #expect(!csv.header.contains { $0.hasSuffix("_km") })
        for (row, entry) in zip(csv.tripRows, report.trips) {
            let trip = entry.trip
            let miles = try #require(tenths(row["distance_mi"]), "\(row)")
            #expect(miles == trip.reportedTenths(in: .miles).distance)
            // Printed to a tenth of a mile, the figure is the stored metres within half a tenth (for a trip with
            // odometer readings: each reading).
            if let start = trip.odometerStart, let printed = tenths(row["odometer_start_mi"]) {
                #expect(abs(Double(printed) * 160.9344 - start) <= 80.4672 + 1e-6)
            } else {
                #expect(abs(Double(miles) * 160.9344 - trip.distance) <= 80.4672 + 1e-6)
            }
        }
        let all = try #require(csv.totalRows.first { $0["kind"] == "all" })
        #expect(tenths(all["distance_mi"]) == report.totals.all)
    }

    @Test func aUKReportsHTMLSaysMilesAndPoundsTheAllowanceAndTheFindings() throws {
        let report = britishReport()
        let html = try HTMLReport.render(report)
        let root = try XMLTree.parse(html)
        let heads = root.descendants("th").map(\.text)
        #expect(heads.contains("mi") && heads.contains("Amount") && !heads.contains("km"), "\(heads)")
        let allowance = try #require(report.allowance)
        let business = report.trips.map(\.trip).filter { $0.kind == .business && $0.counts }
        #expect(allowance.amounts.map(\.trip) == business.map(\.id))
        for trip in business {
            let amount = try #require(allowance.text(of: trip.id))
            #expect(amount.hasPrefix("£"))
            #expect(html.contains("<td class=\"num amount\">\(amount)</td>"), "trip \(trip.id)")
        }
        // The month's first business trip: its tenths of a mile at 55p (HMRC's rate from 6 April 2026), rounded half up
        // to the penny.
        let first = try #require(business.first)
        let pence = (first.reportedTenths(in: .miles).distance * 55 + 5) / 10
        #expect(allowance.text(of: first.id) == Currency.pound.text(minor: pence))
        #expect(html.contains("This period: <strong>\(allowance.currency.text(minor: allowance.total))</strong>"))
        #expect(html.contains("tax year from 2026-04-06"))
        #expect(html.contains("HMRC approved mileage rates from 6 April 2026"))
        // Trip 43, business without a purpose: the check section says so and how to fix it.
        let findings = root.descendants("li").filter { $0.attributes["class"]?.hasPrefix("finding") == true }.map(\.text)
        #expect(findings.contains { $0.hasPrefix("Trip 43: business trip without a purpose.") }, "\(findings)")
        #expect(findings.count == report.findings?.count)
        // The maps' captions count miles too, and nothing a reader sees says kilometres.
        #expect(!root.descendants("figcaption").map(\.text).contains { $0.contains(" km ") })
        let visible = root.descendants("body").map(\.text).joined()
        #expect(!visible.contains(" km") && !visible.contains("kilomet"), "\(visible)")
    }

    @Test func theMailSaysTheAllowanceAndWhatCheckFound() {
        let report = britishReport()
        let body = ReportMail.body(for: report)
        let allowance = report.allowance!
        #expect(body.contains("Allowance (UK): \(allowance.currency.text(minor: allowance.total)); tax year from 2026-04-06 to 2026-10-31: "))
        #expect(body.contains("trackctl check: \(report.findings!.count) finding"))
        #expect(body.contains("- trip 43: business trip without a purpose"))
        #expect(body.contains(" mi ("), "totals in miles")
        // A log without a country: no allowance, and check's every-log rules.
        var plain = ReportFixture.report()
        plain.findings = []
        #expect(!ReportMail.body(for: plain).contains("Allowance"))
        #expect(ReportMail.body(for: plain).contains("trackctl check: nothing to question."))
    }

    @Test func theGPXDescriptionsAndTheGeoJSONOfAUKReportCountMiles() throws {
        let report = britishReport()
        let gpx = GPXExport.render(report)
        // The tracks' descriptions (the first is the metadata's: plate and company).
        let descriptions = gpx.components(separatedBy: "<desc>").dropFirst(2).map { $0.components(separatedBy: "</desc>")[0] }
        #expect(!descriptions.isEmpty)
        #expect(descriptions.allSatisfy { $0.contains(" mi") && !$0.contains(" km") }, "\(descriptions)")
        let geojson = try GeoJSONExport.render(report)
        #expect(geojson.contains("\"distance_mi\":"), "the figure the report prints, beside distance_km")
    }
}
