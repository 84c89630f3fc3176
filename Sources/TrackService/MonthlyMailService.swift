import Logging
import ServiceLifecycle
import TrackCore
import TrackInput
import TrackReports
import TrackStore

/// Sends each ended month's report by e-mail, once (docs/mail.md, "Every month by itself"). At its start and every
/// `checkInterval` seconds it asks the log which month is due (`MonthlyReportSchedule`: "today" in the log's time
/// zone from GPS time when the daemon has had a fix, else the wall clock) and sends the oldest due month through
/// `ReportMailer`, which records the sending (trigger `monthly`) only once the server accepted it. A failure is
/// logged with msmtp's words and tried again after `retryInterval` seconds (0.75 to 1.25 times it, so that a fleet
/// does not retry in step). The log's record is the truth: a month recorded as sent is never sent again, across
/// restarts too. At a stop, a sending under way is stopped (nothing is recorded; the next start sends it again).
public struct MonthlyMailService: Service {
    let mailer: ReportMailer
    let schedule: MonthlyReportSchedule
    let checkInterval: Double
    let retryInterval: Double
    /// "Now" for the calendar and the report: GPS time when the daemon has had a fix, else the wall clock.
    let now: @Sendable () -> UTCTime
    let clock: @Sendable () -> MonotonicInstant
    let logger: Logger

    /// `nil` when the configuration does not send the monthly report (no address, or `monthly: false`).
    /// `domain` is the right-hand side of the messages' ids when no sender is configured (the host's name).
    public init?(configuration: MailConfiguration, log: MileageLog, status: LiveStatus, domain: String,
                 schedule: MonthlyReportSchedule = MonthlyReportSchedule(), logger: Logger,
                 clock: @escaping @Sendable () -> MonotonicInstant = MonotonicClock.now) {
        let now: @Sendable () -> UTCTime = { status.logTime(now: clock()).time }
        guard configuration.sendsMonthly,
              let mailer = ReportMailer(configuration: configuration, log: log, status: status, domain: domain,
                                        clock: clock) else { return nil }
        self.mailer = mailer
        self.schedule = schedule
        checkInterval = configuration.checkInterval
        retryInterval = configuration.retryInterval
        self.now = now
        self.clock = clock
        self.logger = logger
    }

    public func run() async {
        logger.info("monthly report by e-mail on", metadata: [
            "to": "\(mailer.recipients.map(\.text).joined(separator: ", "))",
            "msmtp_config": "\(mailer.transport.configFile ?? "msmtp's own")"])
        await cancelWhenGracefulShutdown {
            var round = MonthlyMailRound()
            while !Task.isCancelled {
                await check(&round)
                try? await Task.sleep(for: .seconds(checkInterval))
            }
        }
        // Cancelled only when trackd stops; returning earlier would break DaemonServices' rule.
        try? await gracefulShutdown()
    }

    /// One look at the calendar: the due month sent, unless a failure's wait is not over.
    func check(_ round: inout MonthlyMailRound) async {
        if let mailing = round.unrecorded {
            // Sent, but the log could not record it: record it, never send it again.
            guard (try? await mailer.log.recordReportMailing(mailing)) != nil else { return }
            logger.notice("monthly report recorded", metadata: ["month": "\(mailing.month)",
                                                                "message_id": "\(mailing.messageID)"])
            round.unrecorded = nil
        }
        let due: CivilDate?
        let today: CivilDate
        do {
            today = try await mailer.log.localDate(of: now())
            let window = schedule.window(today: today)
            let months = try await mailer.log.reportMonths(from: window.from, until: window.until)
            due = schedule.due(today: today, months: months)
            let waiting = due == nil ? schedule.waitingForOpenTrip(today: today, months: months) : nil
            // Said once a day, and when what is due changes: what the log says of the months within reach.
            let look = MonthlyMailRound.Look(today: today, due: due, waiting: waiting,
                                             sent: months.filter(\.sent).map(\.first))
            if round.lastLook != look {
                round.lastLook = look
                var metadata: Logger.Metadata = [
                    "today": "\(today)", "due": "\(due.map(Self.name) ?? "none")",
                    "sent": "\(look.sent.isEmpty ? "none" : look.sent.map(Self.name).joined(separator: ", "))"]
                if let waiting { metadata["waiting_for_open_trip"] = "\(Self.name(waiting))" }
                logger.info(waiting == nil ? "monthly report checked" : "monthly report waits for the open trip to end",
                            metadata: metadata)
            }
        } catch {
            logger.warning("monthly report cannot read the log", metadata: ["error": "\(error)"])
            return
        }
        guard let month = due else { return }
        if let retryAt = round.retryAt, clock() < retryAt { return }
        do throws(ReportMailError) {
            let mailing = try await mailer.send(month: month, trigger: .monthly)
            round.retryAt = nil
            round.failures = 0
            logger.notice("monthly report mailed", metadata: [
                "month": "\(mailing.month)", "to": "\(mailing.recipients.joined(separator: ", "))",
                "message_id": "\(mailing.messageID)", "chain_head": "\(mailing.chainHead)", "mailing": "\(mailing.id)"])
        } catch {
            if case .send(.stopped) = error, Task.isCancelled { return }
            if case .notRecorded(let mailing, _) = error {
                round.unrecorded = mailing
                logger.error("monthly report mailed but not recorded; recording it again until the log takes it",
                             metadata: ["month": "\(mailing.month)", "message_id": "\(mailing.messageID)",
                                        "error": "\(error)"])
                return
            }
            round.failures += 1
            let wait = retryInterval * Double.random(in: 0.75...1.25)
            round.retryAt = clock().adding(seconds: wait)
            logger.warning("monthly report not sent; trying again later", metadata: [
                "month": "\(Self.name(month))", "error": "\(error)", "attempt": "\(round.failures)",
                "retry_in": "\(Int(wait.rounded(.up))) s"])
        }
    }

    /// `2026-11`.
    static func name(_ month: CivilDate) -> String {
        LogPeriod.month(year: month.year, month: month.month).description
    }
}

/// What `MonthlyMailService.run` remembers between its looks at the calendar; owned by that loop alone.
struct MonthlyMailRound {
    /// When the next attempt may be made after a failure.
    var retryAt: MonotonicInstant?
    /// Failures in a row.
    var failures = 0
    /// A sending the log could not record: recorded before anything else, and never sent again.
    var unrecorded: ReportMailing?
    /// What the last look at the calendar found (said in the journal when it changes).
    var lastLook: Look?

    /// What one look at the calendar found.
    struct Look: Equatable {
        var today: CivilDate
        var due: CivilDate?
        var waiting: CivilDate?
        /// The months within reach already sent by trackd.
        var sent: [CivilDate]
    }
}
