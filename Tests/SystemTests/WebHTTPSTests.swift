import Foundation
import Testing
import TestSupport
import TrackWebClient

/// The page over HTTPS with the certificate and key of trackd.conf's `web:` section (docs/web.md, "HTTPS"), checked
/// by a client (curl) that trusts only the test's own certificate authority.
@Suite(.serialized) struct WebHTTPSTests {
    /// A quiet trackd (no fixes) and trackd-web on a plain and an HTTPS port with `authority`'s server certificate.
    static func start(_ folder: TemporaryFolder) async throws -> (Trackd, TrackdWeb, HTTPSClient, Int) {
        let authority = try TestCertificateAuthority(folder: folder.path)
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1")
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket, tls: authority)
        return (daemon, web, HTTPSClient(authority: authority, folder: folder.path), try #require(web.tlsPort))
    }

    @Test func pairsAndServesThePageOverHTTPSWithTheConfiguredCertificateAndASecureCookie() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web, client, port) = try await Self.start(folder)
        let base = "https://127.0.0.1:\(port)"
        // trackctl web pair names the HTTPS address first.
        let pairing = try await trackctl(["web", "--admin-socket", web.adminSocket, "--json", "pair"])
        let offer = try #require(try json(pairing.output) as? [String: Any], "\(pairing.error)")
        let code = try #require(offer["code"] as? String)
        #expect(offer["urls"] as? [String] == ["\(base)/pair?code=\(code)", "http://127.0.0.1:\(web.port)/pair?code=\(code)"])
        let form = try await client.send("GET", "\(base)/pair?code=\(code)")
        #expect(form.status == 200 && form.text.contains(code), "\(form.curlError)")
        let paired = try await client.send("POST", "\(base)/api/pair",
                                           headers: [("Origin", base), ("Content-Type", "application/x-www-form-urlencoded")],
                                           body: "code=\(code)&name=phone")
        #expect(paired.status == 303, "\(paired.curlError) \(paired.text)")
        let cookie = try #require(paired.header("Set-Cookie"))
        let attributes = Set(cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(attributes.isSuperset(of: ["Secure", "HttpOnly", "SameSite=Strict"]), "\(cookie)")
        let token = try #require(cookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last.map(String.init))
        let me = try await client.send("GET", "\(base)/api/me", cookie: token)
        let device = try json(me.text) as? [String: Any]
        #expect(me.status == 200 && device?["name"] as? String == "phone", "\(me.text)")
        // Over HTTPS only the https origin is the page's own: the same address with http:// is another origin.
        let start = #"{"kind":"business","purpose":"Delivery"}"#
        let wrongScheme = try await client.send("POST", "\(base)/api/rpc/start", cookie: token,
                                                headers: [("Origin", "http://127.0.0.1:\(port)")], body: start)
        #expect(wrongScheme.status == 403)
        #expect(await daemon.status()?["trip"] == nil)
        let own = try await client.send("POST", "\(base)/api/rpc/start", cookie: token, headers: [("Origin", base)],
                                        body: start)
        #expect(own.status == 200, "\(own.text)")
        #expect((await daemon.status()?["trip"] as? [String: Any])?["kind"] as? String == "business")
        // The plain socket's cookie is not marked Secure: a browser would not send it back over plain HTTP.
        let plainToken = try await web.pair(name: "laptop")
        let plain = try await web.request("GET", "/api/me", cookie: plainToken)
        #expect(plain.status == 200)
        let plainCode = try await web.newCode()
        let plainPairing = try await web.request("POST", "/api/pair", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                                 body: "code=\(plainCode)&name=tablet")
        #expect(plainPairing.header("Set-Cookie")?.contains("Secure") == false)
        await daemon.stop()
        web.process.stop()
    }

    @Test func plainHTTPToTheHTTPSPortGetsNoAnswerAndChangesNothing() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web, client, port) = try await Self.start(folder)
        let before = try await query(daemon.database, ".dump")
        let token = try await web.pair()
        let plain = try await run("/usr/bin/curl", [
            "--silent", "--show-error", "--max-time", "60", "--request", "POST", "--header", "Cookie: trackd_session=\(token)",
            "--header", "Origin: http://127.0.0.1:\(port)", "--data-binary", #"{"kind":"business","purpose":"x"}"#,
            "http://127.0.0.1:\(port)/api/rpc/start"])
        #expect(plain.status != 0 && plain.output.isEmpty, "curl \(plain.status): \(plain.output) \(plain.error)")
        #expect(try await query(daemon.database, ".dump") == before)
        // trackd-web carries on: the next HTTPS request is answered.
        #expect(web.process.isRunning)
        #expect(try await client.send("GET", "https://127.0.0.1:\(port)/pair").status == 200)
        await daemon.stop()
        web.process.stop()
    }

    @Test func aClientThatDoesNotTrustTheCertificateIsNotServed() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web, client, port) = try await Self.start(folder)
        let stranger = HTTPSClient(authority: try TestCertificateAuthority(folder: folder.path, name: "another CA"),
                                   folder: folder.path)
        let refused = try await stranger.send("GET", "https://127.0.0.1:\(port)/pair")
        #expect(refused.status == 0 && refused.curlStatus == 60, "curl \(refused.curlStatus): \(refused.curlError)")
        #expect(try await client.send("GET", "https://127.0.0.1:\(port)/pair").status == 200)
        await daemon.stop()
        web.process.stop()
    }

    /// trackd-web with an HTTPS socket and trackd.conf `text` (none when `nil`): its exit status and what it logged.
    static func startRefused(_ folder: TemporaryFolder, configuration text: String?) async throws -> CommandResult {
        let configuration = folder.file("web-\(UUID().uuidString).conf")
        if let text { try Data(text.utf8).write(to: URL(fileURLWithPath: configuration)) }
        return try await run(Products.trackdWeb, [
            "--listen-tls", "127.0.0.1:\(try LoopbackPort.free())", "--admin-socket", folder.file("admin.sock"),
            "--state-dir", folder.path, "--assets", TrackdWeb.assets, "--config", text == nil ? "/dev/null" : configuration])
    }

    @Test func refusesToStartWithoutAUsableCertificateAndSaysWhich() async throws {
        let folder = try TemporaryFolder()
        let authority = try TestCertificateAuthority(folder: folder.path)
        let other = try TestCertificateAuthority(folder: folder.path, name: "another CA")
        let cases: [(configuration: String?, sentence: String)] = [
            (nil, "is for HTTPS, but /dev/null names no certificate"),
            ("web:\n  certificate: \(authority.serverCertificate)\n", "'web.key' is not"),
            ("web:\n  certificate: \(folder.file("missing.pem"))\n  key: \(authority.serverKey)\n",
             "\(folder.file("missing.pem")): the certificate cannot be read: No such file or directory"),
            ("web:\n  certificate: \(authority.serverKey)\n  key: \(authority.serverKey)\n", "not a certificate in PEM form"),
            ("web:\n  certificate: \(authority.serverCertificate)\n  key: \(other.serverKey)\n",
             "does not go with the certificate \(authority.serverCertificate)"),
        ]
        for (configuration, sentence) in cases {
            let result = try await Self.startRefused(folder, configuration: configuration)
            #expect(result.status == 1 && result.error.contains(sentence), "\(result.status): \(result.error)")
        }
    }
}
