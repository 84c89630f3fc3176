import FoundationEssentials
import TrackCore
import TrackReports
import TrackService
import TrackStore
import TrackctlTexts

/// `trackctl export --mail`: the month's report (the CSV table and the printable HTML) by e-mail through msmtp, as
/// the daemon sends it at a month's end, and its record in the log (trigger `manual`).
extension ExportCommand {
    /// Reads the month's report through trackd, sends it, and asks trackd to record the sending.
    func mailReport() async throws {
        let options = trackctl.connection
        if let db = options.db {
            throw Failure.exit(t("--mail records the sending in the log, and --db only reads \(db) without changing it; run the command where trackd runs, without --db"), status: ExitStatus.refused,
                               json: options.json)
        }
        let recipients: [MailAddress]
        let sender: MailAddress?
        do {
            recipients = try mail.map { text throws(MailAddressError) in try MailAddress(text) }
            sender = try mailFrom.map { text throws(MailAddressError) in try MailAddress(text) }
        } catch {
            throw Failure.exit(error.description, status: ExitStatus.refused, json: options.json)
        }

        let params = TripsParams(period: try period.period, kind: period.kind)
        let report = try await LogAccess.read(options, .export, params, as: MileageReport.self) { log, now in
            try await log.report(params, now: now, generator: "trackctl \(TrackVersion.string)")
        }
        let now = UTCTime(secondsSinceEpoch: Date().timeIntervalSince1970)
        let message: MailMessage
        do {
            message = try ReportMail.message(for: report, from: sender, to: recipients, at: now,
                                             domain: sender?.domain ?? ProcessInfo.processInfo.hostName)
        } catch {
            throw Failure.exit("\(error)", status: ExitStatus.refused, json: options.json)
        }
        do {
            try await MailTransport(configFile: msmtpConfig).send(message)
        } catch {
            throw Failure.exit(error.description, status: ExitStatus.refused, json: options.json)
        }

        let month = ReportMail.periodName(of: report)
        let mailing = ReportMailing(month: month, recipients: recipients.map(\.text),
                                    sentAt: UTCTime(secondsSinceEpoch: Date().timeIntervalSince1970),
                                    chainHead: report.chainHead ?? "", messageID: message.messageID, trigger: .manual)
        let recorded: ReportMailing
        do {
            recorded = try await LogAccess.change(options, .reportMailed, mailing, as: ReportMailing.self,
                                                  command: "export --mail")
        } catch {
            printError(t("trackctl: the report of \(month) was sent (message <\(message.messageID)>), but the log did not record it"))
            throw error
        }
        if options.json {
            print(try ControlCall.json(recorded))
            return
        }
        let files = ReportMail.attachmentNames(for: report).joined(separator: t(" and "))
        let to = recorded.recipients.joined(separator: ", ")
        print(t("sent \(report.periodTitle) (\(files), \(report.totals.trips) trips) to \(to): message <\(recorded.messageID)>, recorded in the log (mailing \(recorded.id))"))
    }
}
