import Foundation
import Testing
import TestSupport
import TrackWebClient

/// Pairing a phone with the page (docs/web.md, "Pairing"): the form, the session cookie, wrong codes slowed and
/// logged, the pairing page open to all and nothing else.
@Suite(.serialized) struct WebPairingTests {
    @Test func aCodeFromTrackctlPairsThePhoneWithAStrictHttpOnlyCookie() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1")
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket)
        let printed = try await trackctl(["web", "--admin-socket", web.adminSocket, "pair"])
        #expect(printed.status == 0, "\(printed.error)")
        let url = try #require(printed.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("http://127.0.0.1:\(web.port)/pair?code=") }, "\(printed.output)")
        let path = String(url.dropFirst("http://127.0.0.1:\(web.port)".count))
        let code = String(path.dropFirst("/pair?code=".count))
        let form = try await web.request("GET", path, origin: nil)
        #expect(form.status == 200 && form.text.contains("value=\"\(code)\""))
        let style = try await web.request("GET", "/pair.css", origin: nil)
        #expect(style.status == 200 && style.header("Content-Type")?.hasPrefix("text/css") == true)
        let paired = try await web.request("POST", "/api/pair", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                           body: "code=\(code)&name=Anna%27s+phone")
        #expect(paired.status == 303 && paired.header("Location") == "/")
        let cookie = try #require(paired.header("Set-Cookie"))
        let attributes = Set(cookie.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(attributes.isSuperset(of: ["HttpOnly", "SameSite=Strict", "Path=/"]), "\(cookie)")
        #expect(!attributes.contains("Secure"), "no TLS here: \(cookie)")
        let token = String(try #require(cookie.split(separator: ";").first?.split(separator: "=").last))
        let me = try await web.request("GET", "/api/me", cookie: token)
        #expect((try json(me.text) as? [String: Any])?["name"] as? String == "Anna's phone")
        // The code was for one device only.
        let again = try await web.request("POST", "/api/pair", body: "code=\(code)&name=second")
        #expect(again.status == 403 && again.text.contains("not valid"))
        await daemon.stop()
        web.process.stop()
    }

    @Test func trackctlPrintsThePairingAddressAsAQRCodeThatACameraReads() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1")
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket)
        let printed = try await trackctl(["web", "--admin-socket", web.adminSocket, "pair", "--qr"])
        #expect(printed.status == 0, "\(printed.error)")
        let lines = printed.output.split(separator: "\n").map(String.init)
        let url = try #require(lines.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("http://127.0.0.1:\(web.port)/pair?code=") }, "\(printed.output)")
        let drawn = lines.filter { $0.contains("\u{1B}[30;107m") }
        #expect(drawn.count >= 11, "\(printed.output)")
        #expect(try QRImage.decodeTerminalLines(drawn, folder: folder.path) == url)
        // The code in the address fills the form the camera opens.
        let form = try await web.request("GET", String(url.dropFirst("http://127.0.0.1:\(web.port)".count)), origin: nil)
        #expect(form.status == 200 && form.text.contains("value=\"\(url.suffix(8))\""))
        // Into a file or a pipe (no terminal) no code is drawn unless asked for.
        let plain = try await trackctl(["web", "--admin-socket", web.adminSocket, "pair"])
        #expect(plain.status == 0 && !plain.output.contains("\u{1B}"), "\(plain.output)")
        await daemon.stop()
        web.process.stop()
    }

    @Test func twentyWrongCodesInARowAreSlowedAndCountedInTheJournal() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1")
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket)
        let code = try await web.newCode()
        let wrong = code == "11111111" ? "22222222" : "11111111"
        var statuses: [Int] = []
        var waits: [String] = []
        for _ in 0..<20 {
            let answer = try await web.request("POST", "/api/pair", body: "code=\(wrong)&name=guess")
            statuses.append(answer.status)
            if let wait = answer.header("Retry-After") { waits.append(wait) }
        }
        // The first five are looked at and refused; after them each attempt waits 1 s, 2 s, 4 s, … before a code is
        // looked at again, so of the fifteen more only the few that come after a wait has run out are looked at
        // (none on a quick machine, two or three on a slow one), and every other one is refused unread with its wait.
        #expect(Array(statuses.prefix(5)) == Array(repeating: 403, count: 5))
        let later = statuses.dropFirst(5)
        let throttled = later.filter { $0 == 429 }.count
        let lookedAt = later.filter { $0 == 403 }.count
        #expect(throttled + lookedAt == 15, "\(statuses)")
        #expect(throttled >= 10, "\(statuses)")
        #expect(waits.count == throttled && waits.allSatisfy { Int($0) ?? 0 >= 1 }, "\(waits)")
        // (That the right code waits too while the throttle holds is DeviceRegistryTests', on a clock of its own.)
        // The journal hears of them at the 1st and 10th attempt, with the address they came from; the rest when
        // someone at the board makes a new code, which lifts the throttle.
        let fresh = try await web.newCode()
        let log = web.process.output.split(separator: "\n").filter { $0.contains("with a wrong code since the last code") }
        #expect(log.count == 3, "\(log)")
        #expect(log.first?.contains("1 pairing attempt with a wrong code") == true, "\(log)")
        #expect(log.dropFirst().first?.contains("10 pairing attempts") == true, "\(log)")
        #expect(log.last?.contains("20 pairing attempts with a wrong code since the last code was made (\(5 + lookedAt) "
                                   + "looked at, \(throttled) refused unread") == true, "\(log)")
        #expect(log.allSatisfy { $0.contains("peer=127.0.0.1") }, "\(log)")
        let paired = try await web.request("POST", "/api/pair", body: "code=\(fresh)&name=owner")
        #expect(paired.status == 303)
        await daemon.stop()
        web.process.stop()
    }
}
