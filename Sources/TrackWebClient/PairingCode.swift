import TrackCore

/// What trackd-web's administration socket answers to `POST /pair` (`trackctl web pair`).
public struct PairingCode: Codable, Sendable {
    public var code: String
    public var role: WebRole
    public var expiresInSeconds: Int
    /// The pairing page at each of the page's addresses, the code filled in.
    public var urls: [String]
    /// The car's Wi-Fi, when trackd-web was given it (the card image): the phone joins it before it opens the page.
    public var carWiFi: WiFiNetwork?

    enum CodingKeys: String, CodingKey {
        case code, role, urls
        case expiresInSeconds = "expires_in_s"
        case carWiFi = "car_wifi"
    }

    public init(code: String, role: WebRole, expiresInSeconds: Int, urls: [String], carWiFi: WiFiNetwork? = nil) {
        self.code = code
        self.role = role
        self.expiresInSeconds = expiresInSeconds
        self.urls = urls
        self.carWiFi = carWiFi
    }
}
