import Hummingbird

/// What the pairing form sends (`application/x-www-form-urlencoded`): the code and the device's name.
struct PairForm: Sendable, Equatable, Decodable {
    var code: String
    var name: String

    enum CodingKeys: CodingKey {
        case code, name
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decodeIfPresent(String.self, forKey: .code) ?? ""
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
    }

    init(code: String, name: String) {
        self.code = code
        self.name = name
    }

    /// Reads the form with Hummingbird's decoder; a form it cannot read has empty fields (a wrong code).
    init(urlEncoded text: String) {
        self = (try? URLEncodedFormDecoder().decode(PairForm.self, from: text)) ?? PairForm(code: "", name: "")
    }
}
