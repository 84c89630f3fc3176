import TrackCore

/// An e-mail as RFC 5322 and MIME (RFC 2045–2047) write it: a text/plain body and attachments in a multipart/mixed
/// message, every part base64-encoded in lines of 76 characters, a subject beyond ASCII as RFC 2047 encoded words,
/// lines ending in CRLF. Pure: the date, the message's id and everything else come in as values.
///
/// The boundary between the parts is made from the message's id and begins with `=_`, which base64 text never
/// holds, so no part can end the message early.
public struct MailMessage: Sendable, Hashable {
    /// The sender; `nil` leaves the `From` header out, and msmtp then writes it from its account's `from`
    /// (`set_from_header auto`, its default).
    public var from: MailAddress?
    public var to: [MailAddress]
    /// Any text: a line break in it becomes a space.
    public var subject: String
    /// When the message was made, written as UTC (`Date: Tue, 01 Dec 2026 06:00:00 +0000`).
    public var date: UTCTime
    /// The `Message-ID` without the angle brackets: `left@right`, ASCII, no spaces.
    public var messageID: String
    /// The text the reader sees first.
    public var body: String
    public var attachments: [MailAttachment]

    public init(from: MailAddress?, to: [MailAddress], subject: String, date: UTCTime, messageID: String,
                body: String, attachments: [MailAttachment]) {
        self.from = from
        self.to = to
        self.subject = subject
        self.date = date
        self.messageID = messageID
        self.body = body
        self.attachments = attachments
    }

    /// The boundary between the parts.
    public var boundary: String {
        // FNV-1a of the id: stable for a message, different between messages.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in messageID.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "=_trackd_" + String(hash, radix: 16)
    }

    /// The message as msmtp takes it on standard input, headers first.
    public var bytes: [UInt8] {
        var text = ""
        if let from { header("From", from.text, into: &text) }
        header("To", to.map(\.text).joined(separator: ",\r\n "), into: &text)
        header("Subject", Self.encodedHeaderText(subject, name: "Subject"), into: &text)
        header("Date", Self.rfc5322Date(date), into: &text)
        header("Message-ID", "<\(messageID)>", into: &text)
        header("MIME-Version", "1.0", into: &text)
        header("Content-Type", "multipart/mixed; boundary=\"\(boundary)\"", into: &text)
        text += "\r\nThis is a message in MIME format: its report is attached.\r\n"
        part(contentType: "text/plain; charset=utf-8", disposition: nil, bytes: Array(body.utf8), into: &text)
        for attachment in attachments {
            let name = Self.quotedParameter(attachment.fileName)
            part(contentType: "\(attachment.contentType); name=\(name)", disposition: "attachment; filename=\(name)",
                 bytes: attachment.bytes, into: &text)
        }
        text += "--\(boundary)--\r\n"
        return Array(text.utf8)
    }

    private func header(_ name: String, _ value: String, into text: inout String) {
        text += "\(name): \(value)\r\n"
    }

    private func part(contentType: String, disposition: String?, bytes: [UInt8], into text: inout String) {
        text += "--\(boundary)\r\n"
        header("Content-Type", contentType, into: &text)
        if let disposition { header("Content-Disposition", disposition, into: &text) }
        header("Content-Transfer-Encoding", "base64", into: &text)
        text += "\r\n"
        text += Self.base64Lines(bytes)
    }
}
