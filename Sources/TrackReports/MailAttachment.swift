/// A file attached to a mail: its name, its MIME type and its bytes, sent base64-encoded.
public struct MailAttachment: Sendable, Hashable {
    /// The file name the reader's mail program offers to save it as (`2026-11.csv`); ASCII.
    public var fileName: String
    /// `text/csv; charset=utf-8`, `text/html; charset=utf-8`.
    public var contentType: String
    public var bytes: [UInt8]

    public init(fileName: String, contentType: String, bytes: [UInt8]) {
        self.fileName = fileName
        self.contentType = contentType
        self.bytes = bytes
    }
}
