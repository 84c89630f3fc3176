import Foundation

/// A certificate authority made for one test with the `openssl` program: its certificate, and a server
/// certificate it signed for `localhost` and 127.0.0.1 (EC P-256, valid for two days).
public struct TestCertificateAuthority: Sendable {
    /// The CA's certificate (PEM): what a client trusts.
    public let certificate: String
    /// The server's certificate and key (PEM).
    public let serverCertificate: String
    public let serverKey: String

    /// Makes the CA, named `name`, and its server certificate in `folder`.
    public init(folder: String, name: String = "trackd test CA") throws {
        let ca = "\(folder)/\(Self.fileName(name))"
        certificate = "\(ca).pem"
        serverCertificate = "\(ca)-server.pem"
        serverKey = "\(ca)-server.key"
        let extensions = "\(ca)-server.ext"
        try Data("subjectAltName=DNS:localhost,IP:127.0.0.1\n".utf8).write(to: URL(fileURLWithPath: extensions))
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(["req", "-x509"] + key + ["-keyout", "\(ca).key", "-out", certificate, "-days", "2",
                                                   "-subj", "/CN=\(name)"])
        try Self.openssl(["req"] + key + ["-keyout", serverKey, "-out", "\(ca)-server.csr", "-subj", "/CN=localhost"])
        try Self.openssl(["x509", "-req", "-in", "\(ca)-server.csr", "-CA", certificate, "-CAkey", "\(ca).key",
                          "-CAcreateserial", "-out", serverCertificate, "-days", "2", "-extfile", extensions])
    }

    private static func fileName(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    private static func openssl(_ arguments: [String]) throws {
        let result = try runProgram("/usr/bin/openssl", arguments)
        guard result.status == 0 else { throw SubprocessError("openssl \(arguments.first ?? ""): \(result.error)") }
    }
}
