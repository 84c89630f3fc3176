#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport
import TrackCore
import TrackWebClient

/// The page as an attacker on the car's Wi-Fi tries it (docs/web.md, "Security model"): a paired read-only device or
/// a stranger, against a real trackd-web over a real trackd, from loopback addresses of their own (127.0.0.2…).
@Suite(.serialized) struct WebAttackTests {
    /// A GET of `path` with the session `cookie`, as a browser sends it, on a connection of its own.
    static func get(_ path: String, port: Int, cookie: String, host: String? = nil) -> String {
        "GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nCookie: trackd_session=\(cookie)\r\n"
            + "Accept: text/event-stream\r\n\r\n"
    }

    @Test func aReadOnlyDevicesSixtyFourEventStreamsLeaveTrackctlAndTheDriverThrough() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "file://\(DriveLog.demo)?speed=2")
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket)
        let viewer = try await web.pair(role: "viewer", name: "accountant")
        let driver = try await web.pair(role: "driver", name: "driver")

        // From two addresses: one address holds at most 32 connections (connectionsAreBounded…).
        var streams: [RawTCPClient] = []
        for index in 0..<64 {
            let stream = try RawTCPClient(port: web.port, from: index.isMultiple(of: 2) ? "127.0.0.2" : "127.0.0.12")
            try stream.send(Self.get("/api/events", port: web.port, cookie: viewer))
            // Following: its first fix arrived (trackd watches for it), or trackd-web ended it for a newer one.
            #expect(await stream.read(until: "\"method\":\"fix\"", waitingUpTo: 60) || stream.receivedText.contains("superseded"),
                    "\(stream.receivedText.suffix(300))")
            streams.append(stream)
        }
        // trackctl and the driver's buttons get through.
        let status = try await trackctl(["--socket", daemon.socket, "status"])
        #expect(status.status == 0, "\(status.output) \(status.error)")
        let verify = try await trackctl(["--socket", daemon.socket, "verify"])
        #expect(verify.status == 0, "\(verify.output) \(verify.error)")
        let start = try await web.request("POST", "/api/rpc/start", cookie: driver, body: #"{"kind":"business","purpose":"Delivery"}"#)
        #expect(start.status == 200, "\(start.status) \(start.text)")
        let stop = try await web.request("POST", "/api/rpc/stop", cookie: driver, body: #"{"purpose":"Delivery"}"#)
        #expect(stop.status == 200, "\(stop.status) \(stop.text)")

        // The device keeps its newest four; each older one was told why it ended, and ended (the last chunk).
        var ended = 0
        for stream in streams.prefix(60) {
            if await stream.read(until: "superseded", waitingUpTo: 30), await stream.read(until: "\r\n0\r\n\r\n", waitingUpTo: 30) {
                ended += 1
            }
        }
        #expect(ended == 60)
        // (Nothing newer came to end them: whatever they were sent is there to be read now.)
        for stream in streams.suffix(4) { stream.readAvailable() }
        #expect(streams.suffix(4).allSatisfy { !$0.receivedText.contains("superseded") && !$0.receivedText.hasSuffix("\r\n0\r\n\r\n") })
        #expect(streams.first?.receivedText.contains("newer page") == true, "\(streams.first?.receivedText.suffix(300) ?? "")")

        // Other devices' streams beyond sixteen in all are refused, with when to try again.
        var others: [RawTCPClient] = []
        for index in 0..<3 {
            let device = try await web.pair(role: "viewer", name: "viewer \(index)")
            for _ in 0..<4 {
                let stream = try RawTCPClient(port: web.port, from: "127.0.0.3")
                try stream.send(Self.get("/api/events", port: web.port, cookie: device))
                #expect(await stream.read(until: "\"method\":\"fix\"", waitingUpTo: 60), "\(stream.receivedText.suffix(300))")
                others.append(stream)
            }
        }
        let extra = try await web.pair(role: "viewer", name: "one too many")
        let refused = try RawTCPClient(port: web.port, from: "127.0.0.4")
        try refused.send(Self.get("/api/events", port: web.port, cookie: extra))
        #expect(await refused.read(until: "pages already follow the car", waitingUpTo: 30), "\(refused.receivedText)")
        #expect(refused.receivedText.hasPrefix("HTTP/1.1 503"), "\(refused.receivedText)")
        #expect(refused.receivedText.lowercased().contains("retry-after: 30"))
        withExtendedLifetime(streams) {}
        withExtendedLifetime(others) {}
        await daemon.stop()
        web.process.stop()
    }

    @Test func deeplyNestedParametersAreRefusedAtOnceWithoutEcho() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web) = try await WebAccessTests.quietLog(folder)
        let driver = try await web.pair()
        // 60 KB of nested arrays (under the body's limit), and 510 levels inside an object.
        let deep = String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000)
        let shallowerThanJSONEncoders = "{\"a\":" + String(repeating: "[", count: 510) + String(repeating: "]", count: 510) + "}"
        for body in [deep, "{\"a\":\(deep)}", shallowerThanJSONEncoders] {
            let answer = try await web.request("POST", "/api/rpc/status", cookie: driver, body: body)
            #expect(answer.status == 400, "\(answer.status) \(answer.text.prefix(200))")
            #expect(answer.text.contains("deeper than 30 levels"), "\(answer.text.prefix(200))")
            #expect(answer.body.count < 300 && !answer.text.contains("[["), "\(answer.text.prefix(200))")
        }
        // Parameters as deep as the page sends are read.
        let edit = try await web.request("POST", "/api/rpc/edit", cookie: driver,
                                         body: #"{"id":1,"changes":{"purpose":"Client visit, Tartu"},"reason":"typo"}"#)
        #expect(edit.status == 200, "\(edit.status) \(edit.text)")
        #expect(web.process.isRunning)
        await daemon.stop()
        web.process.stop()
    }

    @Test func aStrangerGuessingCodesKeepsNeitherTheOwnerFromPairingNorTheJournalBusy() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web) = try await WebAccessTests.quietLog(folder)
        let code = try await web.newCode()
        let wrong = code == "00000000" ? "00000001" : "00000000"
        // A stranger's loop of wrong codes, from an address of its own, far past the throttle.
        for _ in 0..<150 {
            let stranger = try RawTCPClient(port: web.port, from: "127.0.0.5")
            let body = "code=\(wrong)&name=x"
            try stranger.send("POST /api/pair HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nOrigin: \(web.origin)\r\n"
                              + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n"
                              + "Connection: close\r\n\r\n\(body)")
            #expect(await stranger.readUntilClosed(waitingUpTo: 30))
            #expect(stranger.receivedText.hasPrefix("HTTP/1.1 403") || stranger.receivedText.hasPrefix("HTTP/1.1 429"),
                    "\(stranger.receivedText.prefix(200))")
        }
        // The owner, on the board's Wi-Fi too, pairs with the code at once.
        let answer = try await web.request("POST", "/api/pair", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                           body: "code=\(code)&name=owner")
        #expect(answer.status == 303, "\(answer.status) \(answer.text.prefix(300))")
        // The journal heard of it at the 1st, 10th and 100th attempt, with the counts; not 150 times.
        let lines = web.process.output.split(separator: "\n").filter { $0.contains("pairing attempt") }
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.last?.contains("100 pairing attempts with a wrong code") == true, "\(lines)")
        #expect(lines.last?.contains("127.0.0.5") == true, "\(lines)")
        await daemon.stop()
        web.process.stop()
    }

    @Test func connectionsAreBoundedPerAddressAndInAllAndAPhoneStillGetsIn() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web) = try await WebAccessTests.quietLog(folder)
        let driver = try await web.pair()
        // Half-sent requests from one address: the 33rd is closed at once.
        var held: [RawTCPClient] = []
        for _ in 0..<32 {
            let connection = try RawTCPClient(port: web.port, from: "127.0.0.6")
            try connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            held.append(connection)
        }
        let beyond = try RawTCPClient(port: web.port, from: "127.0.0.6")
        try beyond.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        #expect(await beyond.readUntilClosed(waitingUpTo: 30), "the 33rd connection from one address is closed")
        #expect(held.allSatisfy { !$0.readAvailable() }, "the first 32 are held")
        #expect(web.process.isRunning, "\(web.process.output.suffix(3000))")
        #expect(web.process.output.components(separatedBy: "too many connections from one address").count == 2)
        // Eight more addresses fill trackd-web's 256 and more; the process holds no more than that.
        for address in 7...15 {
            for _ in 0..<32 {
                let connection = try RawTCPClient(port: web.port, from: "127.0.0.\(address)")
                try connection.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                held.append(connection)
            }
        }
        // A phone still gets in, and is answered.
        let me = try await web.request("GET", "/api/me", cookie: driver)
        #expect(me.status == 200, "\(me.status) \(me.text)")
        // An evicted or refused connection is closed a moment after it was taken: the count comes down to the bound
        // once those closes are done (a leak never would).
        var sockets: [String] = []
        let bounded = await poll(upTo: 30) {
            sockets = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(web.process.pid)/fd")) ?? []).filter {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(web.process.pid)/fd/\($0)"))?.hasPrefix("socket:") == true
            }
            return sockets.count <= 256 + 8
        }
        #expect(bounded, "\(sockets.count) sockets: 256 connections at most, and the listening ones")
        #expect(sockets.count >= 256, "\(sockets.count) sockets: the connections were taken, up to the limit")
        withExtendedLifetime(held) {}
        await daemon.stop()
        web.process.stop()
    }

    @Test func onlyTheBoardsOwnNamesAreAnswered() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web) = try await WebAccessTests.quietLog(folder)
        let driver = try await web.pair()
        let before = try await WebAccessTests.contents(daemon)
        // A page of evil.example that made its name resolve to the board (DNS rebinding) sends its own Host and Origin.
        let rebound = [("Host", "evil.example:\(web.port)")]
        let start = try await web.request("POST", "/api/rpc/start", cookie: driver, origin: "http://evil.example:\(web.port)",
                                          headers: rebound, body: #"{"kind":"business","purpose":"Delivery"}"#)
        #expect(start.status == 421, "\(start.status) \(start.text)")
        let code = try await web.newCode()
        let pair = try await web.request("POST", "/api/pair", origin: "http://evil.example:\(web.port)",
                                         headers: rebound + [("Content-Type", "application/x-www-form-urlencoded")],
                                         body: "code=\(code)&name=x")
        #expect(pair.status == 421, "\(pair.status) \(pair.text)")
        let page = try await web.request("GET", "/pair", headers: rebound)
        #expect(page.status == 421 && page.text.contains("does not answer to the name"), "\(page.status) \(page.text)")
        #expect(page.header("Content-Security-Policy") != nil)
        #expect(try await WebAccessTests.contents(daemon) == before)
        // Its addresses and names are answered.
        var hostName = [CChar](repeating: 0, count: 256)
        gethostname(&hostName, 255)
        let name = String(decoding: hostName.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for host in ["127.0.0.1:\(web.port)", "localhost:\(web.port)", "\(name):\(web.port)", "\(name.uppercased()).local.",
                     "[::1]:\(web.port)"] {
            let answer = try await web.request("GET", "/api/me", cookie: driver, headers: [("Host", host)])
            #expect(answer.status == 200, "\(host): \(answer.status) \(answer.text)")
        }
        await daemon.stop()
        web.process.stop()
    }

    @Test func onlyThePagesOwnFilesAreServedAsNamed() async throws {
        let folder = try TemporaryFolder()
        let assets = folder.file("web")
        try FileManager.default.copyItem(atPath: TrackdWeb.assets, toPath: assets)
        try Data("secret".utf8).write(to: URL(fileURLWithPath: folder.file("secret.txt")))
        try Data("hidden".utf8).write(to: URL(fileURLWithPath: "\(assets)/.hidden"))
        try FileManager.default.createDirectory(atPath: "\(assets)/.git", withIntermediateDirectories: false)
        try Data("[core]".utf8).write(to: URL(fileURLWithPath: "\(assets)/.git/config"))
        try FileManager.default.createSymbolicLink(atPath: "\(assets)/leak.txt", withDestinationPath: folder.file("secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: "\(assets)/outside", withDestinationPath: folder.path)
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1")
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket, assets: assets)
        let driver = try await web.pair()
        for path in ["/app.js%00.html", "/app.js%00", "/.hidden", "/.git/config", "/leak.txt", "/outside/secret.txt",
                     "/%2Ehidden"] {
            let answer = try await web.request("GET", path, cookie: driver)
            #expect(answer.status == 404 || answer.status == 400, "\(path): \(answer.status) \(answer.header("Content-Type") ?? "")")
            #expect(!answer.text.contains("secret") && !answer.text.contains("hidden") && !answer.text.contains("[core]"),
                    "\(path): \(answer.text.prefix(100))")
        }
        // The page's files are served as before.
        let script = try await web.request("GET", "/app.js", cookie: driver)
        #expect(script.status == 200 && script.header("Content-Type")?.contains("javascript") == true)
        let index = try await web.request("GET", "/", cookie: driver)
        #expect(index.status == 200 && index.header("Content-Type")?.contains("text/html") == true)
        await daemon.stop()
        web.process.stop()
    }

    @Test func refusalsCarryTheSecurityHeadersAndNameNothingOfTheBoard() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web) = try await WebAccessTests.quietLog(folder)
        let driver = try await web.pair()
        // Too large a body, to a call and to the pairing form.
        let large = String(repeating: " ", count: 70 * 1024)
        for (path, cookie) in [("/api/rpc/status", driver as String?), ("/api/pair", nil)] {
            let answer = try await web.request("POST", path, cookie: cookie, body: large)
            #expect(answer.status == 413, "\(path): \(answer.status)")
            #expect(answer.header("Content-Security-Policy") != nil && answer.header("X-Content-Type-Options") == "nosniff"
                    && answer.header("Referrer-Policy") == "same-origin", "\(path): \(answer.headers)")
        }
        // trackd gone: the page is told so, not where its socket is.
        await daemon.stop()
        let gone = try await web.request("POST", "/api/rpc/status", cookie: driver)
        #expect(gone.status == 502, "\(gone.status) \(gone.text)")
        #expect(gone.text.contains("trackd is not running"), "\(gone.text)")
        #expect(!gone.text.contains(daemon.socket) && !gone.text.contains("/control.sock") && !gone.text.contains(folder.path),
                "\(gone.text)")
        #expect(web.process.output.contains(daemon.socket), "the journal has the detail")
        web.process.stop()
    }
}
