import Foundation
import Testing
import TestSupport
import TrackWebClient

/// "Send by e-mail" on the page's Reports screen: trackd sends the month's report to trackd.conf's `mail.to`
/// through msmtp to a real SMTP server on loopback (python3-aiosmtpd) and records it (`report.mail`); the page
/// learns from `status` whether mail is configured.
@Suite(.serialized) struct WebMailTests {
    /// trackd with one November trip typed in and mail to two addresses through `server` (monthly off: only the
    /// page sends), trackd-web over it, a paired driver and a paired read-only device.
    static func start(_ folder: TemporaryFolder, server: SMTPServer?) async throws -> (Trackd, TrackdWeb, String, String) {
        let configuration = try server.map { server in
            """
            mail:
              to: [driver@example.org, tax@example.com]
              from: trackd@example.org
              msmtp_config: \(try server.msmtpConfiguration(at: folder.file("msmtprc")))
              monthly: false
            """
        }
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1", configuration: configuration ?? "")
        let added = try await trackctl(["--socket", daemon.socket, "add", "--date", "2026-11-20", "--distance", "186.4",
                                        "--business", "--purpose", "Client visit", "--reason", "typed in from the paper log"])
        #expect(added.status == 0, "\(added.error)")
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket)
        return (daemon, web, try await web.pair(name: "driver"), try await web.pair(role: "viewer", name: "accountant"))
    }

    @Test func aDriverSendsTheMonthsReportFromThePageAndTheLogRecordsIt() async throws {
        let folder = try TemporaryFolder()
        let server = try SMTPServer(in: folder)
        try await server.start()
        let (daemon, web, driver, viewer) = try await Self.start(folder, server: server)
        // The page shows the button from status: who gets the report.
        let status = try await web.request("POST", "/api/rpc/status", cookie: driver, body: "{}")
        let mail = (try json(status.text) as? [String: Any])?["result"] as? [String: Any]
        #expect((mail?["mail"] as? [String: Any])?["to"] as? [String] == ["driver@example.org", "tax@example.com"],
                "\(status.text)")
        // Read only: refused by trackd-web, nothing sent.
        let refused = try await web.request("POST", "/api/rpc/report.mail", cookie: viewer, body: #"{"month":"2026-11"}"#)
        #expect(refused.status == 403)
        let badMonth = try await web.request("POST", "/api/rpc/report.mail", cookie: driver, body: #"{"month":"2026-13"}"#)
        #expect(badMonth.text.contains("write YYYY-MM"), "\(badMonth.status) \(badMonth.text)")
        #expect(try server.messages().isEmpty)

        let sent = try await web.request("POST", "/api/rpc/report.mail", cookie: driver, body: #"{"month":"2026-11"}"#)
        #expect(sent.status == 200, "\(sent.text)")
        let record = (try json(sent.text) as? [String: Any])?["result"] as? [String: Any]
        #expect(record?["month"] as? String == "2026-11" && record?["trigger"] as? String == "manual", "\(sent.text)")
        #expect(record?["recipients"] as? [String] == ["driver@example.org", "tax@example.com"])
        let messages = try server.messages()
        try #require(messages.count == 1)
        let parsed = try ParsedMail.parse(messages[0])
        #expect(parsed.defects.isEmpty)
        #expect(parsed.headers["x-rcptto"] == "driver@example.org, tax@example.com")
        #expect(parsed.headers["message-id"] == "<\(record?["message_id"] as? String ?? "")>")
        let csv = try #require(parsed.parts.first { $0.fileName == "2026-11.csv" })
        let exported = try await trackctl(["--socket", daemon.socket, "export", "--format", "csv", "--month", "2026-11"])
        #expect(String(decoding: csv.bytes, as: UTF8.self) == exported.output)
        #expect(exported.output.contains("Client visit"))
        #expect(try await query(daemon.database, "SELECT month, recipients, trigger FROM report_mail")
                == "2026-11|driver@example.org, tax@example.com|manual")
        await daemon.stop()
        web.process.stop()
    }

    @Test func aMailServerThatIsDownGivesMsmtpsReasonOnThePageAndRecordsNothing() async throws {
        let folder = try TemporaryFolder()
        let server = try SMTPServer(in: folder)  // not started
        let (daemon, web, driver, _) = try await Self.start(folder, server: server)
        let down = try await web.request("POST", "/api/rpc/report.mail", cookie: driver, body: #"{"month":"2026-11"}"#)
        let error = (try json(down.text) as? [String: Any])?["error"] as? [String: Any]
        #expect(down.status == 422, "\(down.text)")
        let message = error?["message"] as? String ?? ""
        #expect(message.hasPrefix("the report of 2026-11 was not sent: the mail server cannot be reached")
                && message.contains("Connection refused"), "\(down.text)")
        #expect(try await query(daemon.database, "SELECT count(*) FROM report_mail") == "0")
        await daemon.stop()
        web.process.stop()
    }

    @Test func withoutMailConfiguredStatusSaysNothingAndTheRequestSaysWhatToConfigure() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web, driver, _) = try await Self.start(folder, server: nil)
        let status = try await web.request("POST", "/api/rpc/status", cookie: driver, body: "{}")
        #expect(status.status == 200 && !status.text.contains("\"mail\""), "\(status.text)")
        let answer = try await web.request("POST", "/api/rpc/report.mail", cookie: driver, body: #"{"month":"2026-11"}"#)
        #expect(answer.status == 422)
        #expect(answer.text.contains("no e-mail is configured: name who gets the month's report with 'to:'"), "\(answer.text)")
        #expect(try await query(daemon.database, "SELECT count(*) FROM report_mail") == "0")
        await daemon.stop()
        web.process.stop()
    }
}
