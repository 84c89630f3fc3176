/// The driver's page (the `web:` section of trackd.conf; docs/web.md): what trackd-web reads at its start. trackd
/// itself only checks the section.
public struct WebConfiguration: Sendable, Hashable {
    /// The page's certificate chain (PEM, the server's certificate first); `nil`: no HTTPS.
    public var certificate: String?
    /// The certificate's private key (PEM).
    public var key: String?
    /// Host names the page answers to besides the board's IP addresses, `localhost` and its own host name (a name
    /// in the local DNS, a proxy's name).
    public var names: [String] = []

    public init() {}

    /// The certificate and key when both are given: the page can be served over HTTPS.
    public var tlsFiles: (certificate: String, key: String)? {
        guard let certificate, let key else { return nil }
        return (certificate, key)
    }
}
