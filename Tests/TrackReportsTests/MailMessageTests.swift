import Foundation
import TestSupport
import Testing
import TrackCore
import TrackReports

/// The MIME composer: what it writes is read back by Python's `email` package (another reader than the writer),
/// and its encodings are checked against their RFCs.
struct MailMessageTests {
    static let csv = Array("\u{FEFF}id,date\r\n41,2026-10-23\r\n".utf8)
    /// Bytes of every value, so that base64's padding and line breaks are all exercised.
    static let binaryish = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37) }

    static func message(subject: String = "Mileage log October 2026: 123 ABC, Jüri Õunapuu",
                        to: [String] = ["driver@example.org", "tax@example.com"]) throws -> MailMessage {
        MailMessage(from: try MailAddress("trackd@example.org"), to: try to.map { try MailAddress($0) },
                    subject: subject, date: .at("2026-12-01T06:00:00Z"),
                    messageID: "trackd.2026-10.0123456789ab.1796104800000@example.org",
                    body: "The mileage log of October 2026.\r\nÕ is a letter.\r\n",
                    attachments: [
                        MailAttachment(fileName: "2026-10.csv", contentType: "text/csv; charset=utf-8", bytes: csv),
                        MailAttachment(fileName: "2026-10.html", contentType: "text/html; charset=utf-8",
                                       bytes: binaryish),
                    ])
    }

    @Test func pythonsEmailPackageReadsTheMessageBackWithItsHeadersAndTheAttachmentsBytes() throws {
        let message = try Self.message()
        let parsed = try ParsedMail.parse(Data(message.bytes))
        #expect(parsed.defects.isEmpty)
        #expect(parsed.contentType == "multipart/mixed")
        #expect(parsed.headers["from"] == "trackd@example.org")
        #expect(parsed.headers["to"] == "driver@example.org, tax@example.com")
        #expect(parsed.headers["subject"] == "Mileage log October 2026: 123 ABC, Jüri Õunapuu")
        #expect(parsed.headers["date"] == "Tue, 01 Dec 2026 06:00:00 +0000")
        #expect(parsed.headers["message-id"] == "<trackd.2026-10.0123456789ab.1796104800000@example.org>")
        #expect(parsed.headers["mime-version"] == "1.0")
        try #require(parsed.parts.count == 3)
        #expect(parsed.parts[0].contentType == "text/plain")
        #expect(parsed.parts[0].charset == "utf-8")
        #expect(parsed.parts[0].disposition == nil)
        #expect(String(decoding: parsed.parts[0].bytes, as: UTF8.self) == message.body)
        #expect(parsed.parts[1].contentType == "text/csv")
        #expect(parsed.parts[1].fileName == "2026-10.csv")
        #expect(parsed.parts[1].disposition == "attachment")
        #expect(Array(parsed.parts[1].bytes) == Self.csv)
        #expect(parsed.parts[2].contentType == "text/html")
        #expect(parsed.parts[2].fileName == "2026-10.html")
        #expect(Array(parsed.parts[2].bytes) == Self.binaryish)
    }

    @Test func everyLineEndsInCRLFAndNoneIsLongerThan78Characters() throws {
        let text = String(decoding: try Self.message(to: (1...12).map { "recipient\($0)@example.org" }).bytes,
                          as: UTF8.self)
        #expect(text.hasSuffix("\r\n"))
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { !$0.contains("\n") && !$0.contains("\r") })
        #expect(lines.allSatisfy { $0.utf8.count <= 78 }, "\(lines.filter { $0.utf8.count > 78 })")
    }

    @Test func base64BodiesAreInLinesOf76Characters() {
        let lines = MailMessage.base64Lines(Self.binaryish).split(separator: "\r\n")
        #expect(lines.count == (1000 + 2) / 3 * 4 / 76 + 1)
        #expect(lines.dropLast().allSatisfy { $0.count == 76 })
        #expect(lines.last!.count == (1000 + 2) / 3 * 4 % 76)
        #expect(MailMessage.base64Lines([]).isEmpty)
    }

    @Test func base64MatchesTheVectorsOfRFC4648() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
                       "foobar": "Zm9vYmFy"]
        for (text, encoded) in vectors {
            #expect(MailMessage.base64(Array(text.utf8)) == encoded)
        }
    }

    @Test func aSubjectBeyondASCIIIsWrittenAsEncodedWordsOfAtMost75CharactersNeverCuttingALetter() throws {
        let subject = String(repeating: "Õunapuu ", count: 12) + "🚗"
        let written = MailMessage.encodedHeaderText(subject, name: "Subject")
        let words = written.split(separator: "\r\n ")
        #expect(words.count > 1)
        for word in words {
            #expect(word.hasPrefix("=?UTF-8?B?") && word.hasSuffix("?="))
            #expect(word.count <= 75)
            let payload = word.dropFirst(10).dropLast(2)
            let bytes = try #require(Data(base64Encoded: String(payload)))
            #expect(String(data: bytes, encoding: .utf8) != nil, "a word cut a letter: \(word)")
        }
        let parsed = try ParsedMail.parse(Data(try Self.message(subject: subject).bytes))
        #expect(parsed.headers["subject"] == subject)
        #expect(parsed.defects.isEmpty)
    }

    @Test func aShortASCIISubjectIsWrittenAsItIs() {
        #expect(MailMessage.encodedHeaderText("Mileage log November 2026", name: "Subject")
                == "Mileage log November 2026")
    }

    @Test func aLineBreakInTheSubjectCannotAddAHeader() throws {
        let parsed = try ParsedMail.parse(Data(try Self.message(subject: "Report\r\nBcc: someone@example.net").bytes))
        #expect(parsed.headers["bcc"] == nil)
        #expect(parsed.headers["subject"] == "Report Bcc: someone@example.net")
    }

    @Test func theDateIsRFC5322sInUTC() {
        #expect(MailMessage.rfc5322Date(.at("2026-12-01T06:00:00Z")) == "Tue, 01 Dec 2026 06:00:00 +0000")
        #expect(MailMessage.rfc5322Date(.at("2024-02-29T23:59:07.900Z")) == "Thu, 29 Feb 2024 23:59:07 +0000")
    }

    @Test func theBoundaryIsOneNoBase64TextHoldsAndDiffersBetweenMessages() throws {
        var other = try Self.message()
        other.messageID = "trackd.2026-11.0123456789ab.1798783200000@example.org"
        let boundary = try Self.message().boundary
        #expect(boundary.hasPrefix("=_"))
        #expect(boundary != other.boundary)
        #expect(boundary == (try Self.message()).boundary)
    }

    @Test func withoutASenderTheFromHeaderIsLeftToMsmtp() throws {
        var message = try Self.message()
        message.from = nil
        let parsed = try ParsedMail.parse(Data(message.bytes))
        #expect(parsed.headers["from"] == nil)
        #expect(parsed.defects.isEmpty)
    }
}
