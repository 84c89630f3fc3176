import Foundation
import TestSupport
import Testing
import TrackCore
import TrackReports
import TrackService
import TrackStore

/// A month's report by e-mail, end to end: from the log, through Debian's msmtp, to a real SMTP server on the
/// loopback interface (python3-aiosmtpd, started by the test), and into the log's record. No timing is asserted:
/// each step waits for the server to listen or for msmtp to end.
struct ReportMailerTests {
    static let november = CivilDate(year: 2026, month: 11, day: 1)!
    static let sent = UTCTime(iso8601: "2026-12-01T06:00:00Z")!

    /// A log with three trips in November 2026, one of them with a purpose beyond ASCII.
    static func log(in folder: TemporaryFolder) async throws -> MileageLog {
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let context = ChangeContext(user: "driver", time: UTCTime(iso8601: "2026-11-30T18:00:00Z")!, timeSource: "gps")
        _ = try await log.setProfile(ProfileChanges(driver: "Jüri Õunapuu", plate: "123 ABC"), reason: "new car",
                                     context: context)
        for (day, metres, purpose) in [(2, 12_400.0, "Customer visit"), (9, 31_500, "Sadama 25 – läbivaatus"),
                                       (23, 8_000, "Post office")] {
            _ = try await log.addTrip(ManualTrip(date: CivilDate(year: 2026, month: 11, day: day)!,
                                                 extent: .distance(metres), kind: .business, purpose: purpose,
                                                 reason: "entered from the notebook"), context: context)
        }
        return log
    }

    static func mailer(_ log: MileageLog, config: String,
                       program: String = MailTransport.defaultProgram) throws -> ReportMailer {
        ReportMailer(log: log, transport: MailTransport(configFile: config, program: program, timeout: 120),
                     from: try MailAddress("trackd@example.org"),
                     recipients: [try MailAddress("driver@example.org"), try MailAddress("tax@example.com")],
                     domain: "example.org", generator: "trackd test", clock: { sent })
    }

    @Test func theMonthsReportArrivesOnceWithBothAttachmentsAsRenderedAndIsRecorded() async throws {
        let folder = try TemporaryFolder()
        let server = try SMTPServer(in: folder)
        try await server.start()
        let config = try server.msmtpConfiguration(at: folder.file("msmtprc"))
        let log = try await Self.log(in: folder)

        let mailing = try await Self.mailer(log, config: config).send(month: Self.november, trigger: .monthly)

        let messages = try server.messages()
        try #require(messages.count == 1)
        let parsed = try ParsedMail.parse(messages[0])
        #expect(parsed.defects.isEmpty)
        #expect(parsed.headers["subject"] == "Mileage log November 2026: 123 ABC, Jüri Õunapuu")
        #expect(parsed.headers["x-rcptto"] == "driver@example.org, tax@example.com")
        #expect(parsed.headers["x-mailfrom"] == "trackd@example.org")
        #expect(parsed.headers["message-id"] == "<\(mailing.messageID)>")
        let report = try await log.report(period: .month(year: 2026, month: 11), kind: .all, now: Self.sent,
                                          generator: "trackd test")
        let files = parsed.parts.filter { $0.disposition == "attachment" }
        #expect(files.map(\.fileName) == ["2026-11.csv", "2026-11.html"])
        #expect(files.first?.bytes == Data(try ReportRenderer.render(report, as: .csv).utf8))
        #expect(files.last?.bytes == Data(try ReportRenderer.render(report, as: .html).utf8))

        #expect(try await log.reportMailings() == [mailing])
        #expect(mailing.month == "2026-11")
        #expect(mailing.recipients == ["driver@example.org", "tax@example.com"])
        #expect(mailing.chainHead == report.chainHead)
        #expect(!mailing.chainHead.isEmpty)
        #expect(mailing.trigger == .monthly)
        #expect(try await log.wasMailedMonthly(month: Self.november))
    }

    @Test func aServerThatIsDownGivesAClearErrorRecordsNothingAndARetrySendsItOnce() async throws {
        let folder = try TemporaryFolder()
        let server = try SMTPServer(in: folder)
        let config = try server.msmtpConfiguration(at: folder.file("msmtprc"))
        let log = try await Self.log(in: folder)
        let mailer = try Self.mailer(log, config: config)

        await #expect {
            try await mailer.send(month: Self.november, trigger: .monthly)
        } throws: { error in
            guard case .send(.serverUnreachable(let cause)) = error as? ReportMailError else { return false }
            return cause.contains("Connection refused")
        }
        #expect(try await log.reportMailings().isEmpty)
        #expect(try await !log.wasMailedMonthly(month: Self.november))

        try await server.start()
        let mailing = try await mailer.send(month: Self.november, trigger: .monthly)
        #expect(try server.messages().count == 1)
        #expect(try await log.reportMailings() == [mailing])
        #expect(try await log.wasMailedMonthly(month: Self.november))
    }

    @Test func aMissingMsmtpIsNamedAndNothingIsRecorded() async throws {
        let folder = try TemporaryFolder()
        let server = try SMTPServer(in: folder)
        let config = try server.msmtpConfiguration(at: folder.file("msmtprc"))
        let log = try await Self.log(in: folder)
        let mailer = try Self.mailer(log, config: config, program: folder.file("no-msmtp"))
        do {
            try await mailer.send(month: Self.november, trigger: .manual)
            Issue.record("sent without msmtp")
        } catch {
            guard case .send(.msmtpMissing(let path)) = error else {
                Issue.record("expected msmtpMissing, got \(error)")
                return
            }
            #expect(path == folder.file("no-msmtp"))
            #expect(error.description.contains("apt install msmtp"))
        }
        #expect(try await log.reportMailings().isEmpty)
    }
}
