/// A Wi-Fi network's name and passphrase: the car's own (the board its access point, on the card image) or one the
/// board joins; with the text phones join a network from when their camera reads it in a QR code, and the file the
/// board keeps it in.
public struct WiFiNetwork: Codable, Sendable, Hashable {
    public var name: String
    public var passphrase: String

    public init(name: String, passphrase: String) {
        self.name = name
        self.passphrase = passphrase
    }

    /// `WIFI:T:WPA;S:NAME;P:PASSPHRASE;;`, the form Android's and iOS's cameras join a network from; `\`, `;`, `,`,
    /// `:` and `"` in the name or passphrase are escaped with a backslash.
    public var joinText: String {
        "WIFI:T:WPA;S:\(Self.escaped(name));P:\(Self.escaped(passphrase));;"
    }

    private static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\;,:\"".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// The file `trackctl setup apply` keeps it in, for trackd-web: the name, then the passphrase, a line each.
    public var fileContents: [UInt8] { Array("\(name)\n\(passphrase)\n".utf8) }

    /// Reads `fileContents`; `nil` when the file does not hold a name and a passphrase.
    public init?(file contents: [UInt8]) {
        let lines = String(decoding: contents, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, !lines[0].isEmpty, !lines[1].isEmpty else { return nil }
        self.init(name: String(lines[0]), passphrase: String(lines[1]))
    }
}
