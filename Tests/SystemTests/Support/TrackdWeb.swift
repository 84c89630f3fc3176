import Foundation
import TestSupport
import TrackWebClient

/// A running trackd-web on a loopback port (and an HTTPS port when given a certificate), with an administration socket
/// of its own, over a trackd's socket.
final class TrackdWeb: @unchecked Sendable {
    let port: Int
    /// The HTTPS port; `nil` without a certificate.
    let tlsPort: Int?
    let adminSocket: String
    let process: TestSubprocess

    /// The page's origin, as a browser that opened it sends it.
    var origin: String { "http://127.0.0.1:\(port)" }

    private init(port: Int, tlsPort: Int?, adminSocket: String, process: TestSubprocess) {
        self.port = port
        self.tlsPort = tlsPort
        self.adminSocket = adminSocket
        self.process = process
    }

    /// The page's files in the source tree.
    static var assets: String { "\(Products.root)/web" }

    /// Starts trackd-web in `folder` over trackd's `controlSocket` and waits until its sockets take connections.
    /// With `tls`, its server certificate and key go in the `web:` section of a trackd.conf of the test's own and
    /// the page is served over HTTPS too; without, the configuration is empty.
    /// `assets` is the folder of the page's files (the source tree's by default).
    /// `more` are further arguments (`--owner-code-file PATH`).
    static func start(folder: String, controlSocket: String, idleExit: Int = 0,
                      tls: TestCertificateAuthority? = nil, assets: String = TrackdWeb.assets,
                      more: [String] = []) async throws -> TrackdWeb {
        let port = try LoopbackPort.free()
        let admin = "\(folder)/web-admin.sock"
        var arguments = ["--listen", "127.0.0.1:\(port)", "--admin-socket", admin, "--control-socket", controlSocket,
                         "--state-dir", folder, "--assets", assets, "--idle-exit", "\(idleExit)"]
        var tlsPort: Int?
        if let tls {
            let configuration = "\(folder)/trackd-web.conf"
            try Data("web:\n  certificate: \(tls.serverCertificate)\n  key: \(tls.serverKey)\n".utf8)
                .write(to: URL(fileURLWithPath: configuration))
            let secure = try LoopbackPort.free()
            arguments += ["--config", configuration, "--listen-tls", "127.0.0.1:\(secure)"]
            tlsPort = secure
        } else {
            arguments += ["--config", "/dev/null"]
        }
        let process = try TestSubprocess(executable: Products.trackdWeb, arguments: arguments + more,
                                         outputPath: "\(folder)/trackd-web.log")
        let web = TrackdWeb(port: port, tlsPort: tlsPort, adminSocket: admin, process: process)
        let started = await poll(upTo: 30) {
            (FileManager.default.fileExists(atPath: admin) && LoopbackPort.acceptsConnections(port)
                && tlsPort.map(LoopbackPort.acceptsConnections) ?? true) || !process.isRunning
        }
        guard started, process.isRunning else { throw SubprocessError("trackd-web did not start: \(process.output)") }
        return web
    }

    /// A request to the page, from its own origin unless told otherwise, with the session `cookie` when given.
    func request(_ method: String, _ path: String, cookie: String? = nil, origin: String? = "own",
                 headers: [(String, String)] = [], body: String = "") async throws -> WebExchange.Response {
        var all = headers
        if let cookie { all.append(("Cookie", "trackd_session=\(cookie)")) }
        if let origin { all.append(("Origin", origin == "own" ? self.origin : origin)) }
        return try await WebExchange.send(method, path, to: .tcp(host: "127.0.0.1", port: port), headers: all,
                                          body: Array(body.utf8))
    }

    /// A request to the administration socket, as `trackctl web` makes it.
    func admin(_ method: String, _ path: String, body: String = "") async throws -> WebExchange.Response {
        try await WebExchange.send(method, path, to: .unixSocket(adminSocket), body: Array(body.utf8))
    }

    /// A new pairing code for `role`.
    func newCode(role: String = "driver") async throws -> String {
        let answer = try await admin("POST", "/pair", body: "{\"role\":\"\(role)\"}")
        guard let code = (try json(answer.text) as? [String: Any])?["code"] as? String else {
            throw SubprocessError("no pairing code: \(answer.status) \(answer.text)")
        }
        return code
    }

    /// Pairs a device of `role` through the pairing form and returns its session token.
    func pair(role: String = "driver", name: String = "test phone") async throws -> String {
        let code = try await newCode(role: role)
        let answer = try await request("POST", "/api/pair", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                       body: "code=\(code)&name=\(name.replacingOccurrences(of: " ", with: "+"))")
        guard answer.status == 303, let cookie = answer.header("Set-Cookie"),
              let token = cookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last else {
            throw SubprocessError("pairing failed: \(answer.status) \(answer.headers) \(answer.text)")
        }
        return String(token)
    }
}

extension Products {
    static var trackdWeb: String { "\(directory)/trackd-web" }
}
