import Foundation
import TestSupport
import Testing
import TrackCore
import TrackStore

/// The log's record of reports sent by e-mail: what went out, to whom, with which chain head; append-only; and the
/// question the daemon asks before it sends a month's report.
struct ReportMailRecordTests {
    static func mailing(month: String = "2026-11", trigger: ReportMailTrigger = .monthly,
                        at time: String = "2026-12-01T06:00:05Z") -> ReportMailing {
        ReportMailing(month: month, recipients: ["driver@example.org", "tax@example.com"],
                      sentAt: UTCTime(iso8601: time)!, chainHead: String(repeating: "ab", count: 32),
                      messageID: "trackd.\(month).abababababab.1796104800000@example.org", trigger: trigger)
    }

    @Test func aSendingIsRecordedAndReadBackAsItWas() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let recorded = try await log.recordReportMailing(Self.mailing())
        #expect(recorded.id == 1)
        var expected = Self.mailing()
        expected.id = 1
        #expect(recorded == expected)
        #expect(try await log.reportMailings() == [expected])
        #expect(try await log.reportMailings(month: "2026-11") == [expected])
        #expect(try await log.reportMailings(month: "2026-10").isEmpty)
        let row = try sqlite3(folder.file("trackd.sqlite"),
                              "SELECT month, recipients, sent_time, trigger FROM report_mail")
        #expect(row.trimmingCharacters(in: .whitespacesAndNewlines)
                == "2026-11|driver@example.org, tax@example.com|2026-12-01T06:00:05.000Z|monthly")
    }

    @Test func onlyTrackdsOwnSendingCountsAsTheMonthSentAutomatically() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let november = CivilDate(year: 2026, month: 11, day: 30)!
        #expect(try await !log.wasMailedMonthly(month: november))
        try await log.recordReportMailing(Self.mailing(trigger: .manual))
        #expect(try await !log.wasMailedMonthly(month: november), "a sending by hand is not the month's")
        try await log.recordReportMailing(Self.mailing(month: "2026-10", trigger: .monthly))
        #expect(try await !log.wasMailedMonthly(month: november), "October's is not November's")
        try await log.recordReportMailing(Self.mailing(trigger: .monthly, at: "2026-12-01T06:10:00Z"))
        #expect(try await log.wasMailedMonthly(month: november))
        #expect(try await log.reportMailings(month: "2026-11").map(\.trigger) == [.manual, .monthly])
    }

    @Test func theRecordCannotBeRewrittenThroughSQLite() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let log = try MileageLog.open(path: path)
        try await log.recordReportMailing(Self.mailing())
        #expect(try sqlite3(path, "UPDATE report_mail SET recipients = 'someone@example.net'").contains("append-only"))
        #expect(try sqlite3(path, "DELETE FROM report_mail").contains("append-only"))
        #expect(try sqlite3(path, "INSERT INTO report_mail (month, recipients, sent_time, chain_head, message_id, "
                            + "trigger) VALUES ('2026-11', 'a@b.c', 'x', '', 'id', 'weekly')").contains("CHECK"))
        #expect(try await log.reportMailings().count == 1)
    }

    @Test func aSendingWithoutAMonthARecipientOrAnIDIsRefused() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        var noMonth = Self.mailing()
        noMonth.month = "last-month"
        var nobody = Self.mailing()
        nobody.recipients = []
        var twoInOne = Self.mailing()
        twoInOne.recipients = ["a@example.org, b@example.org"]
        var noID = Self.mailing()
        noID.messageID = ""
        for mailing in [noMonth, nobody, twoInOne, noID] {
            await #expect(throws: StoreError.self) { try await log.recordReportMailing(mailing) }
        }
        #expect(try await log.reportMailings().isEmpty)
    }

    @Test func theRecordIsTheNewestStepOfTheSchema() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        #expect(try log.appliedMigrations().last == "v5-report-mail")
    }
}
