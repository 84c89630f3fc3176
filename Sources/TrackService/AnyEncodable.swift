/// Any encodable result, for the response envelope.
struct AnyEncodable: Codable, Sendable {
    let value: any Encodable & Sendable

    init(_ value: any Encodable & Sendable) {
        self.value = value
    }

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }

    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "results are only encoded"))
    }
}
