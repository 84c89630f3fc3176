import Foundation
import Testing
import TestSupport
import TrackWebClient

/// trackd-web started by its sockets as systemd starts it (socket activation, through systemd-socket-activate, which
/// passes listening sockets the way systemd does), and ending by itself when nobody uses it.
@Suite(.serialized) struct WebSocketActivationTests {
    /// trackd-web behind systemd-socket-activate in `folder`: a TCP socket on a free loopback port named `pageName`,
    /// and its administration socket (`admin.sock`, named `admin`) when `admin` is set; then `arguments`.
    static func activate(_ folder: TemporaryFolder, pageName: String, admin: Bool = true,
                         arguments: [String]) throws -> (TestSubprocess, port: Int, admin: String) {
        let port = try LoopbackPort.free()
        let adminSocket = folder.file("admin.sock")
        var sockets = ["--listen=127.0.0.1:\(port)", "--fdname=\(pageName)"]
        if admin { sockets += ["--listen=\(adminSocket)", "--fdname=admin"] }
        let activator = try TestSubprocess(
            executable: "/usr/bin/systemd-socket-activate",
            arguments: sockets + [Products.trackdWeb, "--state-dir", folder.path, "--assets", TrackdWeb.assets] + arguments,
            outputPath: folder.file("activated.log"))
        return (activator, port, adminSocket)
    }

    @Test func startsOnTheFirstConnectionServesBothSocketsAndExitsWhenIdle() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1")
        let (activator, port, admin) = try Self.activate(folder, pageName: "http", arguments: [
            "--control-socket", daemon.socket, "--idle-exit", "2", "--config", "/dev/null"])
        #expect(await poll(upTo: 30) { LoopbackPort.acceptsConnections(port) && FileManager.default.fileExists(atPath: admin) })
        // The first connection starts trackd-web on the socket it was made on.
        let pairing = try await WebExchange.send("POST", "/pair", to: .unixSocket(admin), body: Array(#"{"role":"driver"}"#.utf8))
        #expect(pairing.status == 200, "\(pairing.text) \(activator.output)")
        let code = try #require((try json(pairing.text) as? [String: Any])?["code"] as? String)
        let urls = (try json(pairing.text) as? [String: Any])?["urls"] as? [String] ?? []
        #expect(urls == ["http://127.0.0.1:\(port)/pair?code=\(code)"])
        let page = try await WebExchange.send("GET", "/", to: .tcp(host: "127.0.0.1", port: port))
        #expect(page.status == 401)
        #expect(activator.output.contains("('http') from systemd (page)"), "\(activator.output)")
        #expect(activator.output.contains("('admin') from systemd (admin)"), "\(activator.output)")
        // A waiting pairing code keeps it up past its two quiet seconds; once used, two quiet seconds end it.
        #expect(await poll(upTo: 60) { activator.output.contains("a pairing code waits to be used: staying up") },
                "\(activator.output)")
        #expect(activator.isRunning)
        let paired = try await WebExchange.send("POST", "/api/pair", to: .tcp(host: "127.0.0.1", port: port),
                                                headers: [("Origin", "http://127.0.0.1:\(port)")],
                                                body: Array("code=\(code)&name=phone".utf8))
        #expect(paired.status == 303)
        #expect(await poll(upTo: 60) { !activator.isRunning }, "\(activator.output)")
        #expect(activator.exitStatus == 0)
        #expect(activator.output.contains("no request for a while: exiting"))
        await daemon.stop()
    }

    @Test func aSocketNamedHTTPSServesThePageWithTheCertificateOfTrackdConf() async throws {
        let folder = try TemporaryFolder()
        let authority = try TestCertificateAuthority(folder: folder.path)
        let configuration = folder.file("trackd.conf")
        try Data("web:\n  certificate: \(authority.serverCertificate)\n  key: \(authority.serverKey)\n".utf8)
            .write(to: URL(fileURLWithPath: configuration))
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1")
        let (activator, port, admin) = try Self.activate(folder, pageName: "https", arguments: [
            "--control-socket", daemon.socket, "--config", configuration])
        #expect(await poll(upTo: 30) { LoopbackPort.acceptsConnections(port) && FileManager.default.fileExists(atPath: admin) })
        let client = HTTPSClient(authority: authority, folder: folder.path)
        let page = try await client.send("GET", "https://127.0.0.1:\(port)/pair")
        #expect(page.status == 200, "\(page.curlError) \(activator.output)")
        #expect(activator.output.contains("('https') from systemd (page over HTTPS)"), "\(activator.output)")
        let pairing = try await WebExchange.send("POST", "/pair", to: .unixSocket(admin), body: Array(#"{"role":"driver"}"#.utf8))
        let urls = (try json(pairing.text) as? [String: Any])?["urls"] as? [String] ?? []
        #expect(urls.count == 1 && urls.allSatisfy { $0.hasPrefix("https://127.0.0.1:\(port)/pair?code=") }, "\(urls)")
        activator.stop()
        await daemon.stop()
    }

    @Test func aSocketOfAnotherNameIsRefusedRatherThanGuessedAt() async throws {
        let folder = try TemporaryFolder()
        let (activator, port, _) = try Self.activate(folder, pageName: "trackd-web.socket", admin: false,
                                                     arguments: ["--config", "/dev/null"])
        #expect(await poll(upTo: 30) { LoopbackPort.acceptsConnections(port) })
        // The first connection starts trackd-web, which refuses the socket and exits.
        _ = try? await WebExchange.send("GET", "/", to: .tcp(host: "127.0.0.1", port: port))
        #expect(await poll(upTo: 60) { !activator.isRunning }, "\(activator.output)")
        #expect(activator.exitStatus == 1)
        #expect(activator.output.contains("systemd passed a socket named 'trackd-web.socket'"), "\(activator.output)")
    }
}
