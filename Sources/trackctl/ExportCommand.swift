import ArgumentParser
import Foundation
import TrackCore
import TrackReports
import TrackStore

/// `trackctl export`: the log of a period as CSV, GPX, GeoJSON or a printable HTML report.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export a period of the log as CSV, GPX, GeoJSON or a printable HTML report.",
        discussion: """
            trackctl export --format csv --last-month --output november.csv
            trackctl export --format html --month 2026-11 --kind business --output report.html
            Without --output the export goes to standard output.
            """)

    @ParentCommand var trackctl: TrackControl

    @Option(help: "The kind of file: a spreadsheet table, GPS tracks, map features or a printable report.")
    var format: ReportFormat

    @OptionGroup var period: PeriodOptions

    @Option(help: ArgumentHelp("Write to this file (atomically) instead of standard output.", valueName: "path"))
    var output: String?

    func run() async throws {
        let params = TripsParams(period: try period.period, kind: period.kind)
        let generator = "trackctl \(TrackVersion.string)"
        let report = try await LogAccess.read(trackctl.connection, .export, params, as: MileageReport.self) { log, now in
            try await log.report(params, now: now, generator: generator)
        }
        let text: String
        do {
            text = try ReportRenderer.render(report, as: format)
        } catch {
            throw Failure.exit("\(error)", status: ExitStatus.refused, json: trackctl.connection.json)
        }
        guard let output else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw Failure.exit("cannot write \(output): \(error.localizedDescription)", status: ExitStatus.refused,
                               json: trackctl.connection.json)
        }
        let totals = report.totals
        printError("\(output): \(totals.trips) trips, business \(LogTrip.kilometresText(tenths: totals.business)) km, "
                   + "private \(LogTrip.kilometresText(tenths: totals.private)) km (\(report.periodTitle))")
    }
}

extension ReportFormat: ExpressibleByArgument {}
