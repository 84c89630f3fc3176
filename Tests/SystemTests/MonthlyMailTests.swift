import Foundation
import TestSupport
import Testing
import TrackCore

/// The month's report by e-mail as trackd sends it by itself (docs/mail.md, "Every month by itself"): a drive that
/// runs past midnight into December, GPS time telling trackd that November has ended, the mail server on loopback
/// (python3-aiosmtpd) down at that moment and started later. No timing is asserted: each step waits for what the
/// daemon says or what the server received.
@Suite(.serialized)
struct MonthlyMailTests {
    /// The mail section: to two addresses through the test server, looking and retrying every second.
    static func configuration(msmtp: String) -> String {
        """
        mail:
          to: [driver@example.org, tax@example.com]
          from: trackd@example.org
          msmtp_config: \(msmtp)
          retry_interval: 1
          check_interval: 1
        """
    }

    /// `html` without the lines that say who made it and when (trackd's mail and trackctl's export differ there).
    static func withoutMaker(_ html: String) -> String {
        html.components(separatedBy: "\n").filter { line in
            !line.contains("<meta name=\"generator\"") && !line.hasPrefix("<dt>Generated</dt>")
                && !line.hasPrefix("<dt>By</dt>")
        }.joined(separator: "\n")
    }

    @Test func theEndedMonthArrivesOnceWithBothAttachmentsAfterTheServerWasDownAndARestartSendsNothingAgain() async throws {
        let folder = try TemporaryFolder()
        let server = try SMTPServer(in: folder)
        let msmtp = try server.msmtpConfiguration(at: folder.file("msmtprc"))
        // The demo drive, five minutes before midnight at the end of November (the log's zone is UTC), then parked.
        let drive = folder.file("month-end.nmea")
        try DriveLog.shift(DriveLog.demo, toStart: UTCTime(iso8601: "2026-11-30T23:55:00Z")!, output: drive)
        try DriveLog.appendParking(to: drive, seconds: 1200)
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(drive)?speed=10", autoStart: "business",
                                            configuration: Self.configuration(msmtp: msmtp))
        let socket = ["--socket", daemon.socket]

        // Midnight passes during the trip: November has ended, but its report waits for the trip that began in it.
        #expect(await poll(upTo: 120) {
            daemon.process.output.contains("monthly report waits for the open trip to end")
        }, "\(daemon.process.output)")
        #expect(try await query(daemon.database, "SELECT count(*) FROM report_mail") == "0")
        let stopped = try await trackctl(socket + ["stop"])
        #expect(stopped.status == 0, "\(stopped.error)")

        // The server is down: the sending fails with msmtp's reason, records nothing, and is tried again.
        #expect(await poll(upTo: 60) {
            daemon.process.output.components(separatedBy: "monthly report not sent").count > 2
        }, "\(daemon.process.output)")
        #expect(daemon.process.output.contains("Connection refused"), "msmtp's words in the journal")
        #expect(try await query(daemon.database, "SELECT count(*) FROM report_mail") == "0")
        #expect(try server.messages().isEmpty)

        try await server.start()
        #expect(await poll(upTo: 60) {
            (try? await query(daemon.database, "SELECT count(*) FROM report_mail")) == "1"
        }, "\(daemon.process.output)")
        let messages = try server.messages()
        try #require(messages.count == 1)
        let parsed = try ParsedMail.parse(messages[0])
        #expect(parsed.defects.isEmpty)
        #expect(parsed.headers["x-rcptto"] == "driver@example.org, tax@example.com")
        #expect(parsed.headers["x-mailfrom"] == "trackd@example.org")
        let files = parsed.parts.filter { $0.disposition == "attachment" }
        #expect(files.map(\.fileName) == ["2026-11.csv", "2026-11.html"])
        let csv = try await trackctl(socket + ["export", "--format", "csv", "--month", "2026-11"])
        #expect(files.first.map { String(decoding: $0.bytes, as: UTF8.self) } == csv.output)
        #expect(csv.output.contains("2026-11-30"), "the trip that ran past midnight is November's: \(csv.output)")
        let html = try await trackctl(socket + ["export", "--format", "html", "--month", "2026-11"])
        let mailed = files.last.map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
        #expect(Self.withoutMaker(mailed) == Self.withoutMaker(html.output))
        #expect(mailed.contains("content=\"trackd "), "made by trackd itself")

        let chainHead = try await query(daemon.database, "SELECT hash FROM ledger ORDER BY seq DESC LIMIT 1")
        let record = try await query(daemon.database, """
            SELECT month, recipients, trigger, chain_head, '<' || message_id || '>' FROM report_mail
            """)
        #expect(record == "2026-11|driver@example.org, tax@example.com|monthly|\(chainHead)|\(parsed.headers["message-id"] ?? "")",
                "\(record)")
        #expect(daemon.process.output.contains("monthly report mailed"))
        await daemon.stop()

        // Started again in December: the log says November went out, so nothing is sent again.
        let december = folder.file("december.nmea")
        try DriveLog.shift(DriveLog.demo, toStart: UTCTime(iso8601: "2026-12-01T09:00:00Z")!, output: december)
        let again = try await Trackd.start(state: folder.path, source: "file://\(december)?speed=10",
                                           configuration: Self.configuration(msmtp: msmtp), run: 1)
        #expect(await poll(upTo: 60) {
            again.process.output.contains("today=2026-12-01")
        }, "\(again.process.output)")
        #expect(again.process.output.contains("sent=2026-11"), "\(again.process.output)")
        await again.stop()
        #expect(try server.messages().count == 1)
        #expect(try await query(daemon.database, "SELECT count(*) FROM report_mail") == "1")
    }
}
