/// GSV, satellites in view (one part of a multi-sentence message per talker).
public struct GSVSentence: Sendable, Hashable {
    public var totalMessages: Int
    public var messageNumber: Int
    public var satellitesInView: Int?

    /// Whether this is the last part of its message.
    public var isLastPart: Bool { messageNumber >= totalMessages }

    static func parse(_ fields: NMEAFieldReader) throws(NMEASentenceError) -> GSVSentence {
        guard let total = try fields.integer(1, "number of messages"), total >= 1 else {
            throw fields.invalid(1, "number of messages")
        }
        guard let number = try fields.integer(2, "message number"), number >= 1 else {
            throw fields.invalid(2, "message number")
        }
        return GSVSentence(totalMessages: total, messageNumber: number,
                           satellitesInView: try fields.integer(3, "satellites in view"))
    }
}
