extension UTCTime: Codable {
    /// Decodes ISO 8601 text such as `2026-11-22T10:00:01.250Z`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let time = UTCTime(iso8601: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 UTC time")
        }
        self = time
    }

    /// Encodes ISO 8601 text with milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601(fractionDigits: 3))
    }
}
