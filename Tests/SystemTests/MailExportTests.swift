import Foundation
import TestSupport
import Testing

/// `trackctl export --mail` as a driver runs it: the month's report through msmtp to a real SMTP server on loopback
/// (python3-aiosmtpd), recorded in the log through trackd; a server that is down refuses clearly and records
/// nothing, and sending again once it is up delivers the report once.
@Suite(.serialized)
struct MailExportTests {
    @Test func theMonthGoesOutByHandOnceTheServerIsUpAndTheLogRecordsIt() async throws {
        let folder = try TemporaryFolder()
        let server = try SMTPServer(in: folder)
        let config = try server.msmtpConfiguration(at: folder.file("msmtprc"))
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=10")
        let socket = ["--socket", daemon.socket]
        let added = try await trackctl(socket + ["add", "--date", "2026-11-22", "--distance", "18.4", "--business",
                                                 "--purpose", "Harbour office"])
        #expect(added.status == 0, "\(added.error)")
        let mail = ["export", "--month", "2026-11", "--mail", "driver@example.org", "--mail", "tax@example.com",
                    "--msmtp-config", config]

        let down = try await trackctl(socket + mail)
        #expect(down.status == 1)
        #expect(down.error.contains("the mail server cannot be reached"), "\(down.error)")
        #expect(down.error.contains("Connection refused"), "msmtp's words are kept: \(down.error)")
        #expect(try await query(daemon.database, "SELECT count(*) FROM report_mail") == "0")

        try await server.start()
        let sent = try await trackctl(socket + ["--json"] + mail)
        #expect(sent.status == 0, "\(sent.error)")
        let record = try json(sent.output) as? [String: Any]
        #expect(record?["month"] as? String == "2026-11")
        #expect(record?["trigger"] as? String == "manual")
        #expect(record?["recipients"] as? [String] == ["driver@example.org", "tax@example.com"])
        let messages = try server.messages()
        try #require(messages.count == 1)
        let parsed = try ParsedMail.parse(messages[0])
        #expect(parsed.parts.compactMap(\.fileName) == ["2026-11.csv", "2026-11.html"])
        #expect(parsed.headers["message-id"] == "<\(record?["message_id"] as? String ?? "")>")
        let csv = try #require(parsed.parts.first { $0.fileName == "2026-11.csv" })
        let exported = try await trackctl(socket + ["export", "--format", "csv", "--month", "2026-11"])
        #expect(String(decoding: csv.bytes, as: UTF8.self) == exported.output)
        #expect(try await query(daemon.database, "SELECT month, recipients, trigger, chain_head <> '' FROM report_mail")
                == "2026-11|driver@example.org, tax@example.com|manual|1")

        // A copy of the log cannot record a sending: refused before anything goes out.
        let copy = try await trackctl(["--db", daemon.database] + mail)
        #expect(copy.status == 1)
        #expect(copy.error.contains("--db"))
        #expect(try server.messages().count == 1)
        await daemon.stop()
    }
}
