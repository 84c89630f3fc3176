import Foundation

/// An e-mail as Python's `email` package reads it (`email.message_from_bytes` with the default policy): the decoded
/// headers, the defects it found, and each leaf part's type, file name and decoded bytes. What tests check a
/// composed or delivered message with, so that a reader other than trackd's own writer judges it.
public struct ParsedMail: Sendable, Decodable {
    /// A leaf part of the message.
    public struct Part: Sendable, Decodable {
        /// `text/plain`, `text/csv`…
        public let contentType: String
        public let charset: String?
        public let fileName: String?
        public let disposition: String?
        /// The bytes after the transfer encoding is undone.
        public let bytes: Data

        enum CodingKeys: String, CodingKey {
            case contentType = "content_type"
            case charset
            case fileName = "filename"
            case disposition
            case bytes
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            contentType = try container.decode(String.self, forKey: .contentType)
            charset = try container.decodeIfPresent(String.self, forKey: .charset)
            fileName = try container.decodeIfPresent(String.self, forKey: .fileName)
            disposition = try container.decodeIfPresent(String.self, forKey: .disposition)
            let base64 = try container.decode(String.self, forKey: .bytes)
            guard let data = Data(base64Encoded: base64) else {
                throw DecodingError.dataCorruptedError(forKey: .bytes, in: container, debugDescription: "not base64")
            }
            bytes = data
        }
    }

    /// Header values as Python decodes them (RFC 2047 words undone), by lower-case name; repeated ones joined
    /// with a newline.
    public let headers: [String: String]
    /// The top-level type: `multipart/mixed`.
    public let contentType: String
    /// What the parser found wrong, in any part: empty for a well-formed message.
    public let defects: [String]
    public let parts: [Part]

    enum CodingKeys: String, CodingKey {
        case headers
        case contentType = "content_type"
        case defects
        case parts
    }

    /// Parses the message in `data` with `/usr/bin/python3`.
    public static func parse(_ data: Data) throws -> ParsedMail {
        let folder = try TemporaryFolder()
        let path = folder.file("message.eml")
        try data.write(to: URL(fileURLWithPath: path))
        let result = try runProgram("/usr/bin/python3", ["-c", script, path])
        guard result.status == 0 else {
            throw SubprocessError("python3's email module could not read the message: \(result.error)")
        }
        return try JSONDecoder().decode(ParsedMail.self, from: Data(result.output.utf8))
    }

    private static let script = """
        import base64, email, email.policy, json, sys
        message = email.message_from_bytes(open(sys.argv[1], 'rb').read(), policy=email.policy.default)
        headers = {}
        for name, value in message.items():
            key = name.lower()
            headers[key] = headers[key] + '\\n' + str(value) if key in headers else str(value)
        defects = [repr(d) for d in message.defects]
        parts = []
        for part in message.walk():
            defects += [repr(d) for d in part.defects]
            if part.is_multipart():
                continue
            parts.append({'content_type': part.get_content_type(), 'charset': part.get_content_charset(),
                          'filename': part.get_filename(), 'disposition': part.get_content_disposition(),
                          'bytes': base64.b64encode(part.get_payload(decode=True) or b'').decode('ascii')})
        print(json.dumps({'headers': headers, 'content_type': message.get_content_type(), 'defects': defects,
                          'parts': parts}))
        """
}
