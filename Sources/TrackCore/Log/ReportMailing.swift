/// One sending of a month's report by e-mail, as the log records it: which month, to whom, when, the chain head the
/// report carried, the message's id, and whether trackd sent it at the month's end or a person by hand.
public struct ReportMailing: Sendable, Hashable, Codable {
    /// The row's number in the log (0 before it is recorded).
    public var id: Int64
    /// The month, `YYYY-MM`.
    public var month: String
    /// The addresses it went to.
    public var recipients: [String]
    /// When the mail server accepted it.
    public var sentAt: UTCTime
    /// The newest hash of the log's chain when the report was made (empty for a log with no chain yet).
    public var chainHead: String
    /// The message's `Message-ID`, without the angle brackets.
    public var messageID: String
    public var trigger: ReportMailTrigger

    public init(id: Int64 = 0, month: String, recipients: [String], sentAt: UTCTime, chainHead: String,
                messageID: String, trigger: ReportMailTrigger) {
        self.id = id
        self.month = month
        self.recipients = recipients
        self.sentAt = sentAt
        self.chainHead = chainHead
        self.messageID = messageID
        self.trigger = trigger
    }

    enum CodingKeys: String, CodingKey {
        case id, month, recipients, trigger
        case sentAt = "sent_at"
        case chainHead = "chain_head"
        case messageID = "message_id"
    }
}
