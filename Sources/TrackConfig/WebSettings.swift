/// The keys of the `web:` section: the driver's page's certificate and key (docs/web.md, "HTTPS"), and the names it
/// answers to.
enum WebSettings {
    static let all: [Setting<WebConfiguration>] = [
        .text("certificate", \.certificate,
              "the page's certificate chain for HTTPS (PEM, the server's certificate first)",
              check: DaemonSettings.absolutePath),
        .text("key", \.key, "the certificate's private key (PEM), readable by the trackd-web user",
              check: DaemonSettings.absolutePath),
        names,
    ]

    static var keys: [String] { all.map(\.key) }

    /// `names`: one host name or a list of them.
    static let names = Setting<WebConfiguration>.list(
        "names", \.names, "host names the page answers to besides the board's addresses, localhost and its own name",
        item: "a host name", example: "a host name, or a list: [logger.fleet.example, trackd.lan]"
    ) { text in
        isHostName(text) ? .success(text)
            : .failure(ExpectedValue("a host name of letters, digits, hyphens and dots (no scheme, port or path)"))
    }

    /// Whether `text` is a DNS host name: labels of letters, digits and hyphens, at most 253 characters.
    static func isHostName(_ text: String) -> Bool {
        let name = text.hasSuffix(".") ? String(text.dropLast()) : text
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D }
        }
    }
}
