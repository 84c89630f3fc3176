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

    @Test func theMonthsToReportCountTripsOpenTripsAndTrackdsOwnSendingsButNotDeletedTrips() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let context = ChangeContext(user: "driver", time: UTCTime(iso8601: "2026-12-01T08:00:00Z")!, timeSource: "gps")
        func add(_ date: String) async throws -> LogTrip {
            try await log.addTrip(ManualTrip(date: CivilDate(iso8601: date)!, extent: .distance(10_000), kind: .business,
                                             purpose: "Customer visit", reason: "from the notebook"), context: context)
        }
        _ = try await add("2026-09-30")
        _ = try await add("2026-10-02")
        let deleted = try await add("2026-10-20")
        _ = try await log.deleteTrip(deleted.id, reason: "entered twice", context: context)
        _ = try await add("2026-11-03")
        _ = try await add("2026-11-28")
        _ = try await add("2026-12-01")
        // A GPS trip still open, dated by its first point: 30 November.
        let open = try await log.beginTrip(kind: .business, purpose: nil, customer: nil)
        let start = TrackPoint(time: UTCTime(iso8601: "2026-11-30T23:50:00Z")!,
                               coordinate: Coordinate(latitude: 59.4, longitude: 24.7), speed: 10, error: 3, distance: 0)
        try await log.appendPoints([RecordedPoint(point: start, segment: 0)], to: open.id)
        try await log.recordReportMailing(Self.mailing(month: "2026-10", trigger: .manual))

        let october = CivilDate(year: 2026, month: 10, day: 1)!
        let november = CivilDate(year: 2026, month: 11, day: 1)!
        let december = CivilDate(year: 2026, month: 12, day: 1)!
        #expect(try await log.reportMonths(from: october, until: december) == [
            MonthlyReportSchedule.Month(first: october, trips: 1, openTrips: 0, sent: false),
            MonthlyReportSchedule.Month(first: november, trips: 3, openTrips: 1, sent: false),
        ])
        try await log.recordReportMailing(Self.mailing(month: "2026-10", trigger: .monthly))
        #expect(try await log.reportMonths(from: october, until: november)
                == [MonthlyReportSchedule.Month(first: october, trips: 1, openTrips: 0, sent: true)])
    }

    @Test func theRecordIsAStepOfTheSchemaAfterTheUplinks() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let steps = try log.appliedMigrations()
        #expect(steps.firstIndex(of: "v5-report-mail") == steps.firstIndex(of: "v4-uplink").map { $0 + 1 })
    }
}
