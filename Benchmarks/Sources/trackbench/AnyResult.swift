/// Any JSON result, not looked into (the answer is counted, its content is another test's business).
struct AnyResult: Codable, Sendable {
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {}
}
