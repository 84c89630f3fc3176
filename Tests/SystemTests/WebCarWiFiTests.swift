import Foundation
import Testing
import TestSupport
import TrackCore
import TrackWebClient

/// The car's Wi-Fi shown to a driver's device and with each pairing code, so that another phone can join the car's
/// network (docs/web.md): a real trackd-web given the file the card image's credential holds, its QR code read back by
/// a real decoder (zbarimg).
@Suite(.serialized) struct WebCarWiFiTests {
    @Test func aDriversDeviceIsShownTheCarsWiFiAndAQRCodeThatJoinsIt() async throws {
        let folder = try TemporaryFolder()
        try Data("Car AB;123\nk7m-p9x-t3w-8ab\n".utf8).write(to: URL(fileURLWithPath: folder.file("car-wifi")))
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1")
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket,
                                            more: ["--car-wifi-file", folder.file("car-wifi")])
        let driver = try await web.pair(role: "driver", name: "driver")
        let viewer = try await web.pair(role: "viewer", name: "accountant")

        let answer = try await web.request("GET", "/api/wifi", cookie: driver)
        let wifi = try #require((try json(answer.text) as? [String: Any])?["wifi"] as? [String: Any], "\(answer.status) \(answer.text)")
        #expect(wifi["name"] as? String == "Car AB;123" && wifi["passphrase"] as? String == "k7m-p9x-t3w-8ab")
        #expect(wifi["join"] as? String == #"WIFI:T:WPA;S:Car AB\;123;P:k7m-p9x-t3w-8ab;;"#)
        let svg = try await web.request("GET", "/api/wifi.svg", cookie: driver)
        #expect(svg.status == 200 && svg.header("Content-Type") == "image/svg+xml")
        #expect(try QRImage.decode(rows: Self.modules(ofSVG: svg.text), folder: folder.path)
                == #"WIFI:T:WPA;S:Car AB\;123;P:k7m-p9x-t3w-8ab;;"#)
        // Not to a device that reads only, nor to one not paired.
        #expect(try await web.request("GET", "/api/wifi", cookie: viewer).status == 403)
        #expect(try await web.request("GET", "/api/wifi.svg").status == 401)
        // trackctl web pair gets it with each code.
        let code = try #require(try json(try await web.admin("POST", "/pair", body: #"{"role":"driver"}"#).text) as? [String: Any])
        #expect((code["car_wifi"] as? [String: Any])?["name"] as? String == "Car AB;123")
        await daemon.stop()
        web.process.stop()
    }

    @Test func aBoardWithoutItsOwnWiFiSaysSo() async throws {
        let folder = try TemporaryFolder()
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1")
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket)
        let driver = try await web.pair(role: "driver", name: "driver")
        let answer = try await web.request("GET", "/api/wifi", cookie: driver)
        #expect(answer.status == 200 && answer.text == #"{"wifi":null}"#, "\(answer.text)")
        let svg = try await web.request("GET", "/api/wifi.svg", cookie: driver)
        #expect(svg.status == 404 && svg.text.contains("no Wi-Fi of its own"), "\(svg.text)")
        let code = try #require(try json(try await web.admin("POST", "/pair", body: #"{"role":"driver"}"#).text) as? [String: Any])
        #expect(code["car_wifi"] == nil)
        await daemon.stop()
        web.process.stop()
    }

    /// The dark modules of trackd-web's SVG (one `M x y h w v1 h-w z` rectangle per run of a row), without its quiet
    /// zone of four.
    static func modules(ofSVG svg: String) throws -> [[Bool]] {
        let side = try #require(svg.firstMatch(of: /viewBox="0 0 (\d+) \d+"/).flatMap { Int($0.1) })
        var rows = Array(repeating: Array(repeating: false, count: side), count: side)
        for run in svg.matches(of: /M(\d+) (\d+)h(\d+)v1h-\d+z/) {
            let (x, y, width) = (Int(run.1)!, Int(run.2)!, Int(run.3)!)
            for column in x..<x + width { rows[y][column] = true }
        }
        return rows.dropFirst(4).dropLast(4).map { Array($0.dropFirst(4).dropLast(4)) }
    }
}
