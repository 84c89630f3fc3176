import Foundation
import Testing
import TestSupport
@testable import TrackWeb

/// The certificate and key of trackd.conf's `web:` section, loaded and checked before any socket is served.
struct WebTLSTests {
    /// The refusal's sentence, or "accepted".
    func sentence(certificate: String, key: String) -> String {
        do {
            _ = try WebTLS.configuration(certificate: certificate, key: key)
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test func acceptsACertificateWithItsOwnKey() throws {
        let folder = try TemporaryFolder()
        let authority = try TestCertificateAuthority(folder: folder.path)
        #expect(sentence(certificate: authority.serverCertificate, key: authority.serverKey) == "accepted")
    }

    @Test func refusesAKeyOfAnotherCertificateNamingBothFiles() throws {
        let folder = try TemporaryFolder()
        let authority = try TestCertificateAuthority(folder: folder.path)
        let other = try TestCertificateAuthority(folder: folder.path, name: "another CA")
        let refusal = sentence(certificate: authority.serverCertificate, key: other.serverKey)
        #expect(refusal.hasPrefix("cannot serve HTTPS with \(other.serverKey): does not go with the certificate "
                                  + authority.serverCertificate), "\(refusal)")
    }

    @Test func refusesAFileThatIsMissingOrOfTheWrongKind() throws {
        let folder = try TemporaryFolder()
        let authority = try TestCertificateAuthority(folder: folder.path)
        let missing = folder.file("missing.pem")
        #expect(sentence(certificate: missing, key: authority.serverKey)
                == "cannot serve HTTPS with \(missing): the certificate cannot be read: No such file or directory")
        #expect(sentence(certificate: authority.serverCertificate, key: missing)
                == "cannot serve HTTPS with \(missing): the private key cannot be read: No such file or directory")
        #expect(sentence(certificate: authority.serverKey, key: authority.serverKey).contains("not a certificate in PEM form"))
        #expect(sentence(certificate: authority.serverCertificate, key: authority.serverCertificate)
                    .contains("not an unencrypted private key in PEM form"))
        let empty = folder.file("empty.pem")
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(sentence(certificate: empty, key: authority.serverKey).hasPrefix("cannot serve HTTPS with \(empty): "))
    }
}
