import ArgumentParser
import FoundationEssentials
import SystemPackage
import TrackCore
import TrackReports
import TrackStore
import TrackctlTexts

/// `trackctl export`: the log of a period as CSV, GPX, GeoJSON or a printable HTML report, or a month's CSV and
/// printable report by e-mail (`--mail`, through msmtp; `ExportCommand+Mail`).
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a period of the log as CSV, GPX, GeoJSON or a printable HTML report, or mail a month.",
        discussion: """
            trackctl export --format csv --last-month --output november.csv
            trackctl export --format html --month 2026-11 --kind business --output report.html
            trackctl export --month 2026-11 --mail me@example.org --mail tax@example.org
            Without --output the export goes to standard output. With --mail the month's CSV table and printable
            report go out as one e-mail through msmtp (its configuration: --msmtp-config, else ~/.msmtprc), and the
            log records the sending (docs/mail.md).
            """)

    @ParentCommand var trackctl: TrackControl

    @Option(help: "The kind of file: a spreadsheet table, GPS tracks, map features or a printable report.")
    var format: ReportFormat?

    @OptionGroup var period: PeriodOptions

    @Option(help: ArgumentHelp("Write to this file (atomically) instead of standard output.", valueName: "path"))
    var output: String?

    @Option(name: .customLong("mail"), help: ArgumentHelp(
        "Send the month's CSV table and printable report to this address by e-mail (again for more addresses).",
        valueName: "address"))
    var mail: [String] = []

    @Option(help: ArgumentHelp("With --mail: the sender (From); without it msmtp's account's 'from'.",
                               valueName: "address"))
    var mailFrom: String?

    @Option(help: ArgumentHelp("With --mail: msmtp's configuration file; without it msmtp's own (~/.msmtprc).",
                               valueName: "path"))
    var msmtpConfig: String?

    func validate() throws {
        guard !mail.isEmpty else {
            if format == nil { throw ValidationError(t("give --format (csv, gpx, geojson or html), or --mail ADDRESS")) }
            if mailFrom != nil || msmtpConfig != nil {
                throw ValidationError(t("--mail-from and --msmtp-config go with --mail"))
            }
            return
        }
        if format != nil || output != nil {
            throw ValidationError(t("--mail sends both the CSV table and the printable report; leave out --format and --output"))
        }
        switch try period.period {
        case .month, .thisMonth, .lastMonth: break
        default: throw ValidationError(t("--mail sends a calendar month: give --month YYYY-MM or --last-month"))
        }
    }

    func run() async throws {
        if !mail.isEmpty { return try await mailReport() }
        guard let format else { throw ValidationError(t("give --format")) }
        let params = TripsParams(period: try period.period, kind: period.kind)
        let generator = "trackctl \(TrackVersion.string)"
        let report = try await LogAccess.read(trackctl.connection, .export, params, as: MileageReport.self) { log, now in
            try await log.report(params, now: now, generator: generator)
        }
        let text: String
        do {
            // SOURCE_DATE_EPOCH: the report's time of making, so that the same log gives the same bytes.
            let report = try SourceDateEpoch.apply(ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], to: report)
            text = try ReportRenderer.render(report, as: format)
        } catch {
            throw Failure.exit("\(error)", status: ExitStatus.refused, json: trackctl.connection.json)
        }
        guard let output else {
            _ = try? FileDescriptor.standardOutput.writeAll(text.utf8)
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw Failure.exit(t("cannot write \(output): \(Failure.reason(error))"), status: ExitStatus.refused,
                               json: trackctl.connection.json)
        }
        let totals = report.totals
        let unit = report.profile.distanceUnit.rawValue
        let figure = { (tenths: Int64) in Format.figure(DistanceUnit.text(tenths: tenths)) + " " + unit }
        let business = figure(totals.business), personal = figure(totals.private)
        printError(t("\(output): \(totals.trips) trips, business \(business), private \(personal) (\(report.periodTitle))"))
    }
}

extension ReportFormat: ExpressibleByArgument {}
