import TrackSQLite
import TrackCore

/// The record of reports sent by e-mail: one append-only row per sending (docs/mail.md).
extension MileageLog {
    /// Records that a month's report went out; gives the row back with its number. Refuses a month that is not
    /// `YYYY-MM`, no recipient, a recipient with a comma or a space, or an empty message id.
    @discardableResult
    public func recordReportMailing(_ mailing: ReportMailing) async throws(StoreError) -> ReportMailing {
        guard case .month = try? LogPeriod.month(parsing: mailing.month) else {
            throw .invalid("'\(mailing.month)' is not a month: a mailed report's month is YYYY-MM, such as 2026-11")
        }
        guard !mailing.recipients.isEmpty else { throw .invalid("a mailed report needs at least one recipient") }
        let odd = mailing.recipients.first { $0.isEmpty || $0.contains(",") || $0.contains(where: \.isWhitespace) }
        if let odd {
            throw .invalid("'\(odd)' is not an e-mail address: a recipient has no comma and no space")
        }
        guard !mailing.messageID.isEmpty else { throw .invalid("a mailed report needs its message's id") }
        return try await write("record a mailed report") { db in
            try db.execute(sql: """
                INSERT INTO report_mail (month, recipients, sent_time, chain_head, message_id, trigger)
                VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [mailing.month, mailing.recipients.joined(separator: ", "),
                                 mailing.sentAt.iso8601(fractionDigits: 3), mailing.chainHead, mailing.messageID,
                                 mailing.trigger.rawValue])
            var recorded = mailing
            recorded.id = db.lastInsertedRowID
            return recorded
        }
    }

    /// The sendings of `month` (`YYYY-MM`), or of every month, oldest first.
    public func reportMailings(month: String? = nil) async throws(StoreError) -> [ReportMailing] {
        try await read("read the mailed reports") { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT * FROM report_mail WHERE ?1 IS NULL OR month = ?1 ORDER BY id
                """, arguments: [month])
            return try rows.map(MileageLog.reportMailing)
        }
    }

    /// Whether trackd already sent the report of the month of `date` by itself (a sending by hand does not count):
    /// what the daemon asks before it sends a month's report.
    public func wasMailedMonthly(month date: CivilDate) async throws(StoreError) -> Bool {
        let month = LogPeriod.month(year: date.year, month: date.month).description
        return try await read("read the mailed reports") { db in
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM report_mail WHERE month = ? AND trigger = 'monthly')
                """, arguments: [month]) ?? false
        }
    }

    /// What the log says of the months from `from` up to, not including, `until` (first days of months), for the
    /// monthly report's schedule: each month with a trip that is not deleted, with its number of trips, of open ones,
    /// and whether trackd already sent its report by itself; oldest first.
    public func reportMonths(from: CivilDate, until: CivilDate) async throws(StoreError) -> [MonthlyReportSchedule.Month] {
        try await read("read the months to report") { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT substr(date, 1, 7) AS month, count(*) AS trips, sum(state = 'open') AS open,
                       EXISTS (SELECT 1 FROM report_mail r WHERE r.month = substr(trip.date, 1, 7)
                               AND r.trigger = 'monthly') AS sent
                FROM trip WHERE date >= ? AND date < ? AND state <> 'deleted'
                GROUP BY month ORDER BY month
                """, arguments: [from.description, until.description])
            return try rows.compactMap { row -> MonthlyReportSchedule.Month? in
                let month: String = try row["month"]
                guard let first = CivilDate(iso8601: month + "-01") else { return nil }
                return try MonthlyReportSchedule.Month(first: first, trips: row["trips"], openTrips: row["open"] ?? 0,
                                                       sent: row["sent"])
            }
        }
    }

    /// A row of `report_mail`.
    static func reportMailing(_ row: Row) throws -> ReportMailing {
        let recipients: String = try row["recipients"]
        let sent: String = try row["sent_time"]
        return try ReportMailing(
            id: row["id"], month: row["month"],
            recipients: recipients.split(separator: ",").map { String($0.drop(while: \.isWhitespace)) },
            sentAt: UTCTime(iso8601: sent) ?? UTCTime(nanosecondsSinceEpoch: 0), chainHead: row["chain_head"],
            messageID: row["message_id"], trigger: ReportMailTrigger(rawValue: row["trigger"]) ?? .manual)
    }
}
