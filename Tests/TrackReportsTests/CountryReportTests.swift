import Foundation
import Testing
import TrackCore
@testable import TrackReports

/// The report of a log kept for a country: in its unit, with each business trip's allowance and what `check` finds.
struct CountryReportTests {
    /// The October fixture as a UK log: miles, pounds, and the fixture's business trip without a purpose.
    private func britishReport() -> MileageReport {
        var report = ReportFixture.report()
        report.profile.country = .unitedKingdom
        // Dated as the log dates them (the fixture leaves the date to the start time).
        let calendar = try! LocalCalendar(profile: report.profile)
        for index in report.trips.indices where report.trips[index].trip.date == nil {
            let trip = report.trips[index].trip
            report.trips[index].trip.date = (trip.start ?? trip.end).map(calendar.date(of:))
        }
        let entries = report.trips.map(\.trip)
        report.allowance = ReportAllowance(MileageAllowance(country: .unitedKingdom, entries: entries),
                                           from: report.from, through: report.until?.previous)
        report.findings = LogCheck.findings(profile: report.profile, entries: entries)
        return report
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
        // The month's first business trip: its tenths of a mile at 45p, rounded half up to the penny.
        let first = try #require(business.first)
        let pence = (first.reportedTenths(in: .miles).distance * 45 + 5) / 10
        #expect(allowance.text(of: first.id) == Currency.pound.text(minor: pence))
        #expect(html.contains("This period: <strong>\(allowance.currency.text(minor: allowance.total))</strong>"))
        #expect(html.contains("tax year from 2026-04-06"))
        #expect(html.contains("ITEPA 2003 s. 230"))
        // Trip 43, business without a purpose: the check section says so and how to fix it.
        let findings = root.descendants("li").filter { $0.attributes["class"]?.hasPrefix("finding") == true }.map(\.text)
        #expect(findings.contains { $0.hasPrefix("Trip 43: business trip without a purpose.") }, "\(findings)")
        #expect(findings.count == report.findings?.count)
        // The maps' captions count miles too.
        #expect(!root.descendants("figcaption").map(\.text).contains { $0.contains(" km ") })
    }

    @Test func theMailSaysTheAllowanceAndWhatCheckFound() {
        let report = britishReport()
        let body = ReportMail.body(for: report)
        let allowance = report.allowance!
        #expect(body.contains("Allowance (UK): \(allowance.currency.text(minor: allowance.total)); tax year from 2026-04-06: "))
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
