/// The keys of the `web:` section: the driver's page's certificate and key (docs/web.md, "HTTPS").
enum WebSettings {
    static let all: [Setting<WebConfiguration>] = [
        .text("certificate", \.certificate,
              "the page's certificate chain for HTTPS (PEM, the server's certificate first)",
              check: DaemonSettings.absolutePath),
        .text("key", \.key, "the certificate's private key (PEM), readable by the trackd-web user",
              check: DaemonSettings.absolutePath),
    ]

    static var keys: [String] { all.map(\.key) }
}
