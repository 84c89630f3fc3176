import TrackCore
import TrackInput
import TrackReports
import TrackStore

/// A month's report by e-mail, from the log: made (`MileageLog.report`), rendered as the CSV and the printable HTML
/// (`ReportMail`), handed to msmtp (`MailTransport`) and, once the server accepted it, recorded in the log
/// (`MileageLog.recordReportMailing`). What the daemon runs when a month has ended and
/// `MileageLog.wasMailedMonthly` says it has not gone yet; a failure records nothing, so the next try sends it.
public struct ReportMailer: Sendable {
    public let log: MileageLog
    public let transport: MailTransport
    /// The sender; `nil` lets msmtp write the account's `from`.
    public let from: MailAddress?
    public let recipients: [MailAddress]
    /// The right-hand side of the messages' ids: the sender's domain, else the host's name.
    public let domain: String
    /// The report's `generator` (`trackd 0.5.0`).
    public let generator: String
    /// The wall clock: when the message is made and when the server accepted it.
    public let clock: @Sendable () -> UTCTime

    public init(log: MileageLog, transport: MailTransport, from: MailAddress?, recipients: [MailAddress],
                domain: String, generator: String = "trackd \(TrackVersion.string)",
                clock: @escaping @Sendable () -> UTCTime) {
        self.log = log
        self.transport = transport
        self.from = from
        self.recipients = recipients
        self.domain = domain
        self.generator = generator
        self.clock = clock
    }

    /// The mailer trackd.conf's `mail:` section describes; `nil` while it names nobody. "Now" for the report and
    /// its message is the daemon's (`status`: GPS time once it has had a fix, else the wall clock); `domain` is the
    /// messages' ids' right-hand side when no sender is configured (the host's name).
    public init?(configuration: MailConfiguration, log: MileageLog, status: LiveStatus, domain: String,
                 clock: @escaping @Sendable () -> MonotonicInstant = MonotonicClock.now) {
        guard !configuration.to.isEmpty else { return nil }
        self.init(log: log, transport: MailTransport(configFile: configuration.msmtpConfig), from: configuration.from,
                  recipients: configuration.to, domain: configuration.from?.domain ?? domain,
                  clock: { status.logTime(now: clock()).time })
    }

    /// Sends the report of the month of `date` (all trips) and records the sending with `trigger`; the record.
    @discardableResult
    public func send(month date: CivilDate, trigger: ReportMailTrigger) async throws(ReportMailError) -> ReportMailing {
        let period = LogPeriod.month(year: date.year, month: date.month)
        let made = clock()
        let report: MileageReport
        do {
            report = try await log.report(period: period, kind: .all, now: made, generator: generator)
        } catch {
            throw .log(error)
        }
        let message: MailMessage
        do {
            message = try ReportMail.message(for: report, from: from, to: recipients, at: made, domain: domain)
        } catch {
            throw .render(error)
        }
        do {
            try await transport.send(message)
        } catch {
            throw .send(error)
        }
        let mailing = ReportMailing(month: period.description, recipients: recipients.map(\.text), sentAt: clock(),
                                    chainHead: report.chainHead ?? "", messageID: message.messageID, trigger: trigger)
        do {
            return try await log.recordReportMailing(mailing)
        } catch {
            throw .notRecorded(mailing, cause: error)
        }
    }
}
