import Testing
import TrackCore
@testable import TrackReports

struct ReportRendererTests {
    let report = ReportFixture.report()

    @Test func renderDispatchesToTheExportOfEachFormat() throws {
        #expect(try ReportRenderer.render(report, as: .csv) == CSVExport.render(report))
        #expect(try ReportRenderer.render(report, as: .gpx) == GPXExport.render(report))
        #expect(try ReportRenderer.render(report, as: .geojson) == GeoJSONExport.render(report))
        #expect(try ReportRenderer.render(report, as: .html) == HTMLReport.render(report))
    }

    @Test func everyFormatHasItsOwnExtensionAndMediaType() {
        let formats = ReportFormat.allCases
        #expect(Set(formats.map(\.fileExtension)).count == formats.count)
        #expect(Set(formats.map(\.mediaType)).count == formats.count)
        #expect(ReportFormat.geojson.mediaType == "application/geo+json")
        #expect(ReportFormat.gpx.mediaType == "application/gpx+xml")
        #expect(ReportFormat(rawValue: "geojson")?.fileExtension == "geojson")
    }

    @Test func renderingTheSameReportTwiceGivesTheSameText() throws {
        for format in ReportFormat.allCases {
            #expect(try ReportRenderer.render(report, as: format) == ReportRenderer.render(report, as: format))
        }
    }

    @Test func everyFormatButGPXRefusesAnUnknownTimeZone() {
        let broken = ReportFixture.report(timeZone: "Mars/Olympus_Mons")
        for format in ReportFormat.allCases where format != .gpx {
            #expect(throws: ReportError.unknownTimeZone("Mars/Olympus_Mons")) {
                try ReportRenderer.render(broken, as: format)
            }
        }
    }
}
