import Foundation
import TestSupport
import Testing
import TrackCore
import TrackReports
@testable import TrackService

/// Handing a message to msmtp: its command line, and its failures told apart by what msmtp says, its words kept.
/// The sending itself, against a real server, is in `ReportMailerTests`.
struct MailTransportTests {
    static func message(from: String? = "trackd@example.org") throws -> MailMessage {
        MailMessage(from: try from.map { try MailAddress($0) },
                    to: [try MailAddress("driver@example.org"), try MailAddress("tax@example.com")],
                    subject: "test", date: UTCTime(nanosecondsSinceEpoch: 0), messageID: "test@example.org",
                    body: "test", attachments: [])
    }

    static func failure(_ status: Int32, _ output: String) -> MailError? {
        MailTransport.failure(.init(ending: .exited(status), output: output, outputCut: 0, stoppedLeftovers: false),
                              program: MailTransport.defaultProgram, configFile: "/etc/trackd/msmtprc", timeout: 300)
    }

    @Test func msmtpGetsTheConfigurationTheSenderAndTheRecipientsAfterADoubleDash() throws {
        let transport = MailTransport(configFile: "/etc/trackd/msmtprc")
        #expect(transport.command(for: try Self.message()) == [
            "/usr/bin/msmtp", "--file=/etc/trackd/msmtprc", "--from=trackd@example.org", "--",
            "driver@example.org", "tax@example.com",
        ])
        #expect(MailTransport().command(for: try Self.message(from: nil)) == [
            "/usr/bin/msmtp", "--", "driver@example.org", "tax@example.com",
        ])
    }

    @Test func aServerThatCannotBeReachedIsToldApartWithMsmtpsWords() {
        let said = "msmtp: cannot connect to 127.0.0.1, port 1: Connection refused\n"
            + "msmtp: could not send mail (account default from /etc/trackd/msmtprc)\n"
        #expect(Self.failure(75, said) == .serverUnreachable(
            cause: "cannot connect to 127.0.0.1, port 1: Connection refused; could not send mail (account default "
                + "from /etc/trackd/msmtprc)"))
        #expect(Self.failure(68, "msmtp: cannot locate host smtp.example.invalid: Name or service not known\n")
                == .serverUnreachable(cause: "cannot locate host smtp.example.invalid: Name or service not known"))
    }

    @Test func aRefusedLoginIsToldApart() {
        let said = "msmtp: authentication failed (method PLAIN)\nmsmtp: server message: 535 5.7.8 Authentication "
            + "credentials invalid\nmsmtp: could not send mail (account default from /etc/trackd/msmtprc)\n"
        guard case .authenticationFailed(let cause) = Self.failure(77, said) else {
            Issue.record("not told apart as a refused login")
            return
        }
        #expect(cause.contains("535 5.7.8"))
    }

    @Test func aRefusedRecipientIsToldApart() {
        let said = "msmtp: recipient address tax@example.com not accepted by the server\nmsmtp: server message: "
            + "550 5.1.1 No such user\nmsmtp: could not send mail (account default from /etc/trackd/msmtprc)\n"
        guard case .refused(let cause) = Self.failure(69, said) else {
            Issue.record("not told apart as a refused mail")
            return
        }
        #expect(cause.contains("tax@example.com") && cause.contains("550 5.1.1"))
    }

    @Test func aFailedTLSHandshakeIsToldApartButNotForAFileNamedTLS() {
        let said = "msmtp: TLS certificate verification failed: The certificate is NOT trusted.\n"
        guard case .tlsFailed = Self.failure(69, said) else {
            Issue.record("not told apart as a TLS failure")
            return
        }
        let refused = "msmtp: cannot connect to mail.example.org, port 587: Connection refused\n"
            + "msmtp: could not send mail (account default from /etc/msmtp-tls.conf)\n"
        guard case .serverUnreachable = Self.failure(75, refused) else {
            Issue.record("a configuration file's name decided the cause")
            return
        }
        let setting = "msmtp: /etc/trackd/msmtprc: line 2: invalid argument of for command tls\n"
        guard case .configuration = Self.failure(78, setting) else {
            Issue.record("a setting named tls was taken for a failed handshake")
            return
        }
    }

    @Test func aConfigurationThatIsMissingIsNamedBeforeMsmtpRuns() async throws {
        let folder = try TemporaryFolder()
        let missing = folder.file("msmtprc")
        await #expect(throws: MailError.configuration(file: missing, cause: "no such file")) {
            try await MailTransport(configFile: missing).send(try Self.message())
        }
    }

    @Test func aConfigurationMsmtpCannotReadIsNamedWithMsmtpsWords() async throws {
        let folder = try TemporaryFolder()
        let config = folder.file("msmtprc")
        try Data("defaults\ntls of\n".utf8).write(to: URL(fileURLWithPath: config))
        chmod(config, 0o600)
        let message = try Self.message()
        do {
            try await MailTransport(configFile: config).send(message)
            Issue.record("msmtp took a configuration it cannot read")
        } catch {
            guard case .configuration(let file, let cause) = error else {
                Issue.record("expected a configuration error, got \(error)")
                return
            }
            #expect(file == config)
            #expect(cause.contains("line 2"), "msmtp's words are kept: \(cause)")
        }
    }

    @Test func everyFailureSaysWhatToDo() {
        let failures: [MailError] = [
            .msmtpMissing(path: "/usr/bin/msmtp"), .cannotStart(path: "/usr/bin/msmtp", reason: "Permission denied"),
            .configuration(file: nil, cause: "x"), .serverUnreachable(cause: "x"), .tlsFailed(cause: "x"),
            .authenticationFailed(cause: "x"), .refused(cause: "x"), .timedOut(seconds: 300), .stopped,
            .failed(status: "exit status 70", cause: "x"),
        ]
        for failure in failures {
            #expect(!failure.description.isEmpty)
        }
        #expect(MailError.authenticationFailed(cause: "535").description.contains("passwordeval"))
    }
}
