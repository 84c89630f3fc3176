import Foundation
import Testing
import TestSupport
import TrackWebClient

/// A board no device has paired with, claimed from the page with its owner code (docs/web.md, "The security model";
/// docs/setup.md): a real trackd-web over a real trackd, the code from a file as the card image's credential gives it.
@Suite(.serialized) struct WebClaimTests {
    static let form = [("Content-Type", "application/x-www-form-urlencoded")]

    static func start(_ folder: TemporaryFolder, ownerCode: String, idleExit: Int = 0) async throws -> (Trackd, TrackdWeb) {
        try Data((ownerCode + "\n").utf8).write(to: URL(fileURLWithPath: folder.file("owner-code")))
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1")
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket, idleExit: idleExit,
                                            more: ["--owner-code-file", folder.file("owner-code")])
        return (daemon, web)
    }

    @Test func theFirstPhoneThatGivesTheOwnerCodeBecomesTheDriverOnce() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web) = try await Self.start(folder, ownerCode: "4821-7730-1193")

        let page = try await web.request("GET", "/pair")
        #expect(page.status == 200 && page.text.contains("Claim this board") && page.text.contains("owner code"))
        // Someone on the network without the code: refused, nothing paired.
        let guess = try await web.request("POST", "/api/pair", headers: Self.form, body: "code=482177301194&name=Mallory")
        #expect(guess.status == 403 && guess.text.contains("not the board"), "\(guess.text)")
        let claim = try await web.request("POST", "/api/pair", headers: Self.form, body: "code=4821+7730+1193&name=Anna%27s+phone")
        let token = try #require(claim.header("Set-Cookie")?.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last,
                                 "\(claim.status) \(claim.text)")
        #expect(claim.status == 303)
        let me = try await web.request("GET", "/api/me", cookie: String(token))
        #expect(me.status == 200 && me.text.contains("\"role\":\"driver\"") && me.text.contains("Anna's phone"), "\(me.text)")
        // Claimed: the owner code pairs no one else; the page asks for a code made at the board, which pairs as before.
        let again = try await web.request("POST", "/api/pair", headers: Self.form, body: "code=482177301193&name=Second")
        #expect(again.status == 403 && again.text.contains("trackctl web pair"), "\(again.text)")
        #expect(try await web.request("GET", "/pair").text.contains("Pair this device"))
        _ = try await web.pair(role: "viewer", name: "accountant")
        let devices = try await web.admin("GET", "/devices")
        #expect(devices.text.contains("Anna's phone") && devices.text.contains("accountant") && !devices.text.contains("Second"),
                "\(devices.text)")
        #expect(web.process.output.contains("no device has paired: the first that gives the owner code claims the board"))
        await daemon.stop()
        web.process.stop()
    }

    @Test func aBoardStartedAgainAfterItsClaimStaysClaimed() async throws {
        let folder = try TemporaryFolder()
        // Idle after a second: while claimable trackd-web stays up (its throttle lives in memory); claimed, it exits.
        let (daemon, web) = try await Self.start(folder, ownerCode: "Tamm-2026-Car", idleExit: 1)
        let claim = try await web.request("POST", "/api/pair", headers: Self.form, body: "code=tamm+2026+car&name=Anna")
        #expect(claim.status == 303, "\(claim.text)")
        #expect(await poll(upTo: 60) { !web.process.isRunning }, "trackd-web stayed up once claimed and idle")
        web.process.stop()
        let restarted = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket,
                                                  more: ["--owner-code-file", folder.file("owner-code")])
        #expect(try await restarted.request("GET", "/pair").text.contains("Pair this device"))
        let again = try await restarted.request("POST", "/api/pair", headers: Self.form, body: "code=Tamm-2026-Car&name=Other")
        #expect(again.status == 403)
        #expect(!restarted.process.output.contains("claims the board"))
        await daemon.stop()
        restarted.process.stop()
    }
}
