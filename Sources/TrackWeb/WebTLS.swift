#if canImport(Glibc)
import Glibc
#endif
import NIOSSL

/// The page's HTTPS: the certificate chain and private key trackd.conf's `web:` section names, loaded and checked
/// against each other before any socket is served (a wrong file stops trackd-web at its start, with the file named,
/// instead of failing every phone's handshake).
public enum WebTLS {
    /// The server configuration for `certificate` (PEM, the server's certificate first) and its `key` (PEM).
    public static func configuration(certificate: String, key: String) throws(WebError) -> TLSConfiguration {
        try readable(certificate, what: "certificate")
        try readable(key, what: "private key")
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificate)
        } catch {
            throw .tls(file: certificate, reason: "not a certificate in PEM form (-----BEGIN CERTIFICATE-----): \(error)")
        }
        guard !chain.isEmpty else {
            throw .tls(file: certificate, reason: "holds no certificate (-----BEGIN CERTIFICATE-----)")
        }
        let privateKey: NIOSSLPrivateKey
        do {
            privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
        } catch {
            throw .tls(file: key, reason: "not an unencrypted private key in PEM form (-----BEGIN PRIVATE KEY-----): \(error)")
        }
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        do {
            // BoringSSL refuses a key that does not belong to the certificate here.
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw .tls(file: key, reason: "does not go with the certificate \(certificate) (\(error))")
        }
        return configuration
    }

    /// Refuses a file trackd-web cannot read, with the system's reason.
    private static func readable(_ path: String, what: String) throws(WebError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .tls(file: path, reason: "the \(what) cannot be read: \(String(cString: strerror(errno)))")
        }
        close(descriptor)
    }
}
