import Foundation
import Testing
import TestSupport
import TrackCore
import TrackWebClient

/// Who may do what on the driver's page (docs/web.md, "Roles"), through real requests to a real trackd-web over a
/// real trackd; "changes nothing" is the log file's whole contents, before and after.
@Suite(.serialized) struct WebAccessTests {
    /// A trackd whose log holds one trip typed in and receives no fixes (a gpsd nobody runs), so that nothing but a
    /// request could change it; and trackd-web over it.
    static func quietLog(_ folder: TemporaryFolder) async throws -> (Trackd, TrackdWeb) {
        let daemon = try await Trackd.start(state: folder.path, source: "gpsd://127.0.0.1:1")
        let added = try await trackctl(["--socket", daemon.socket, "add", "--date", "2026-11-20", "--distance", "186.4",
                                        "--business", "--purpose", "Client visit", "--reason", "typed in from the paper log"])
        #expect(added.status == 0, "\(added.error)")
        let web = try await TrackdWeb.start(folder: folder.path, controlSocket: daemon.socket)
        return (daemon, web)
    }

    /// Every row of every table of the log.
    static func contents(_ daemon: Trackd) async throws -> String {
        try await query(daemon.database, ".dump")
    }

    /// Parameters that would make each changing method do something, so that a refusal is the access rule's.
    static let changingParams: [ControlMethod: String] = [
        .start: #"{"kind":"business","purpose":"Delivery"}"#,
        .stop: #"{"purpose":"Delivery"}"#,
        .add: #"{"date":"2026-11-21","from":"A","to":"B","distance_m":1000,"kind":"private","reason":"x"}"#,
        .edit: #"{"id":1,"changes":{"purpose":"Other"},"reason":"x"}"#,
        .delete: #"{"id":1,"reason":"x"}"#,
        .regularAdd: #"{"name":"Office","from":"A","to":"B","distance_m":1000,"kind":"business","purpose":"x"}"#,
        .regularRemove: #"{"name":"Office"}"#,
        .odometerSet: #"{"reading_km":12345,"reason":"dashboard"}"#,
        .odometerCalibrate: #"{"reason":"the car's odometer"}"#,
        .profileSet: #"{"driver":"Mallory","reason":"x"}"#,
        .erase: #"{"before":"2026-12-01","reason":"x"}"#,
        .placeAdd: #"{"name":"Home","position":{"latitude":59.4,"longitude":24.7}}"#,
        .placeEdit: #"{"id":1,"changes":{"name":"X"},"reason":"x"}"#,
        .placeRemove: #"{"id":1,"reason":"x"}"#,
        .ruleAdd: #"{"rule":{"type":"hours","days":[1,2,3,4,5],"start":"08:00","end":"18:00","kind":"private"}}"#,
        .ruleEdit: #"{"rule":1,"changes":{"state":"paused"}}"#,
        .ruleDelete: #"{"rule":1}"#,
        .confirm: #"{"all":true}"#,
        .reportMailed: #"{"period":"2026-11","to":["a@example.org"]}"#,
        .reportMail: #"{"month":"2026-11"}"#,
        .reportCopied: #"{"time":"2026-11-29T12:00:00Z","label":"TRACKD","filesystem":"vfat","folder":"trackd/car","written":1,"unchanged":0,"removed":0,"chain_head":""}"#,
    ]

    @Test func everyEndpointWithoutASessionAnswers401AndChangesNothing() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web) = try await Self.quietLog(folder)
        let before = try await Self.contents(daemon)
        var paths: [(String, String)] = [("GET", "/"), ("GET", "/index.html"), ("GET", "/app.js"), ("GET", "/app.css"),
                                         ("GET", "/api/me"), ("GET", "/api/events"), ("GET", "/api/export?format=csv"),
                                         ("GET", "/api/trips/1/map.svg"), ("GET", "/api/wifi"), ("GET", "/api/wifi.svg"),
                                         ("GET", "/no-such-file")]
        for method in ControlMethod.allCases { paths.append(("POST", "/api/rpc/\(method.rawValue)")) }
        for (verb, path) in paths {
            let method = ControlMethod(rawValue: String(path.dropFirst("/api/rpc/".count)))
            let answer = try await web.request(verb, path, body: method.flatMap { Self.changingParams[$0] } ?? "")
            #expect(answer.status == 401, "\(verb) \(path): \(answer.status) \(answer.text)")
            #expect(answer.text.contains("not paired"), "\(verb) \(path): \(answer.text)")
        }
        // A made-up session is no session.
        let guessed = try await web.request("POST", "/api/rpc/start", cookie: String(repeating: "0", count: 64),
                                            body: Self.changingParams[.start]!)
        #expect(guessed.status == 401)
        #expect(try await Self.contents(daemon) == before)
        await daemon.stop()
        web.process.stop()
    }

    @Test func thePageGoesGzipCompressedToAPairedBrowserThatTakesIt() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web) = try await Self.quietLog(folder)
        let gzip = [("Accept-Encoding", "gzip, deflate, br")]
        // Not paired: refused, compressed or not.
        let stranger = try await web.request("GET", "/app.js", headers: gzip)
        #expect(stranger.status == 401 && stranger.header("Content-Encoding") == nil, "\(stranger.status)")

        let driver = try await web.pair()
        for (path, file) in [("/", "index.html"), ("/app.js", "app.js"), ("/app.css", "app.css")] {
            let original = try Array(Data(contentsOf: URL(fileURLWithPath: "\(TrackdWeb.assets)/\(file)")))
            let packed = try await web.request("GET", path, cookie: driver, headers: gzip)
            #expect(packed.status == 200, "\(path): \(packed.status)")
            #expect(packed.header("Content-Encoding") == "gzip" && packed.header("Vary") == "Accept-Encoding", "\(path)")
            #expect(packed.header("Content-Security-Policy") != nil, "\(path): the page's headers as on every answer")
            #expect(packed.body.count < original.count / 2, "\(path): \(packed.body.count) of \(original.count) bytes")
            #expect(try await Self.gunzip(packed.body, in: folder) == original, "\(path)")
            // A browser that has it revalidates it: nothing sent again.
            let tag = try #require(packed.header("ETag"))
            let again = try await web.request("GET", path, cookie: driver, headers: gzip + [("If-None-Match", tag)])
            #expect(again.status == 304 && again.body.isEmpty, "\(path): \(again.status)")
            // A browser without gzip gets the file as it is.
            let plain = try await web.request("GET", path, cookie: driver)
            #expect(plain.status == 200 && plain.header("Content-Encoding") == nil && plain.body == original, "\(path)")
        }
        // A type the page does not compress goes as it is.
        let icon = try await web.request("GET", "/icon.svg", cookie: driver, headers: [("Accept-Encoding", "identity")])
        #expect(icon.status == 200 && icon.header("Content-Encoding") == nil)
        await daemon.stop()
        web.process.stop()
    }

    /// `bytes` decompressed by gzip(1), not by trackd-web's own zlib call.
    static func gunzip(_ bytes: [UInt8], in folder: TemporaryFolder) async throws -> [UInt8] {
        let path = folder.file("answer.gz")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try await run("/bin/gzip", ["-dc", path])
        #expect(result.status == 0, "\(result.error)")
        return Array(result.output.utf8)
    }

    @Test func aReadOnlyDeviceReadsEverythingAndChangesNothing() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web) = try await Self.quietLog(folder)
        let viewer = try await web.pair(role: "viewer", name: "accountant")
        let before = try await Self.contents(daemon)
        for method in ControlMethod.allCases where method.changesLog {
            let answer = try await web.request("POST", "/api/rpc/\(method.rawValue)", cookie: viewer,
                                               body: Self.changingParams[method] ?? "{}")
            #expect(answer.status == 403, "\(method.rawValue): \(answer.status) \(answer.text)")
        }
        #expect(try await Self.contents(daemon) == before)
        for method in [ControlMethod.status, .trips, .show, .profile, .odometer, .regularList, .placeList, .verify, .export] {
            let params = method == .show ? #"{"id":1}"# : "{}"
            let answer = try await web.request("POST", "/api/rpc/\(method.rawValue)", cookie: viewer, body: params)
            #expect(answer.status == 200, "\(method.rawValue): \(answer.status) \(answer.text)")
        }
        let csv = try await web.request("GET", "/api/export?format=csv&period=2026-11", cookie: viewer)
        #expect(csv.status == 200 && csv.text.contains("Client visit"))
        await daemon.stop()
        web.process.stop()
    }

    /// docs/web.md's table of methods and roles: each row's method and its three cells (driver, read only, not
    /// paired), `true` for "yes".
    static func rolesTable() throws -> [(method: ControlMethod, cells: [Bool])] {
        let text = try String(contentsOfFile: "\(Products.root)/docs/web.md", encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> (ControlMethod, [Bool])? in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4, cells[0].hasPrefix("`"),
                  let method = ControlMethod(rawValue: cells[0].trimmingCharacters(in: ["`"])) else { return nil }
            return (method, cells.dropFirst().map { $0 == "yes" })
        }
    }

    @Test func eachCellOfTheRolesTableHolds() async throws {
        let table = try Self.rolesTable()
        #expect(Set(table.map(\.method)) == Set(ControlMethod.allCases), "docs/web.md lists every method once")
        #expect(table.count == ControlMethod.allCases.count)
        let folder = try TemporaryFolder()
        let (daemon, web) = try await Self.quietLog(folder)
        let driver = try await web.pair(role: "driver", name: "driver")
        let viewer = try await web.pair(role: "viewer", name: "viewer")
        let readingParams: [ControlMethod: String] = [.show: #"{"id":1}"#]
        for (method, cells) in table {
            let body = Self.changingParams[method] ?? readingParams[method] ?? "{}"
            let roles: [(name: String, token: String?, allowed: Bool)] = [
                ("driver", driver, cells[0]), ("read only", viewer, cells[1]), ("not paired", nil, cells[2]),
            ]
            for role in roles {
                let answer = try await web.request("POST", "/api/rpc/\(method.rawValue)", cookie: role.token, body: body)
                let reply = try? json(answer.text) as? [String: Any]
                let fromTrackd = reply?["result"] != nil || (reply?["error"] as? [String: Any])?["code"] != nil
                if role.allowed {
                    // Reached trackd: its result, or its own refusal with its code.
                    #expect([200, 422].contains(answer.status) && fromTrackd,
                            "\(method.rawValue) as \(role.name): \(answer.status) \(answer.text)")
                } else {
                    #expect(answer.status == (role.token == nil ? 401 : 403) && !fromTrackd,
                            "\(method.rawValue) as \(role.name): \(answer.status) \(answer.text)")
                }
            }
        }
        await daemon.stop()
        web.process.stop()
    }

    @Test func aChangeFromThePageIsRecordedAsMadeForTheDeviceThatAskedIt() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web) = try await Self.quietLog(folder)
        let token = try await web.pair(name: "Anna's%0Aphone")  // a line break in the form
        let me = try #require(try json(try await web.request("GET", "/api/me", cookie: token).text) as? [String: Any])
        #expect(me["name"] as? String == "Anna's phone", "a name is one line")
        let device = try #require(me["id"] as? Int)
        let edited = try await web.request("POST", "/api/rpc/edit", cookie: token,
                                           body: #"{"id":1,"changes":{"purpose":"Harbour office"},"reason":"the real client"}"#)
        #expect(edited.status == 200, "\(edited.text)")
        let shown = try await trackctl(["--socket", daemon.socket, "--json", "show", "1"])
        let history = try #require((try json(shown.output) as? [String: Any])?["revisions"] as? [[String: Any]], "\(shown.output)")
        let user = try await run("/usr/bin/id", ["-un"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        // trackd-web runs as the test's user here (as trackd-web under systemd): the user, and for whom.
        #expect(history.last?["field"] as? String == "purpose")
        #expect(history.last?["user"] as? String == "\(user) for device \(device) (Anna's phone)", "\(history)")
        #expect(history.first?["user"] as? String == user, "trackctl's own change names the user alone: \(history)")
        await daemon.stop()
        web.process.stop()
    }

    @Test func aRevokedDeviceIsRefusedOnItsNextRequest() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web) = try await Self.quietLog(folder)
        let token = try await web.pair(name: "lost phone")
        #expect(try await web.request("GET", "/api/me", cookie: token).status == 200)
        let devices = try await trackctl(["web", "--admin-socket", web.adminSocket, "--json", "devices"])
        let listed = try #require(try json(devices.output) as? [[String: Any]])
        let id = try #require(listed.first { $0["name"] as? String == "lost phone" }?["id"] as? Int)
        let revoked = try await trackctl(["web", "--admin-socket", web.adminSocket, "revoke", "\(id)"])
        #expect(revoked.status == 0, "\(revoked.error)")
        let next = try await web.request("POST", "/api/rpc/start", cookie: token, body: Self.changingParams[.start]!)
        #expect(next.status == 401)
        #expect(await daemon.status()?["trip"] == nil)
        await daemon.stop()
        web.process.stop()
    }

    @Test func aRequestFromAnotherSiteCannotStartStopOrEditATrip() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web) = try await Self.quietLog(folder)
        let token = try await web.pair()
        let before = try await Self.contents(daemon)
        let crossSite: [(origin: String?, headers: [(String, String)])] = [
            ("http://evil.example", []),
            ("null", []),
            ("http://127.0.0.1:\(web.port + 1)", []),
            (nil, []),
            (nil, [("Sec-Fetch-Site", "cross-site")]),
        ]
        for method in [ControlMethod.start, .stop, .edit, .delete, .profileSet] {
            for attempt in crossSite {
                let answer = try await web.request("POST", "/api/rpc/\(method.rawValue)", cookie: token,
                                                   origin: attempt.origin, headers: attempt.headers,
                                                   body: Self.changingParams[method]!)
                #expect(answer.status == 403, "\(method.rawValue) from \(attempt.origin ?? "no origin"): \(answer.status)")
            }
        }
        #expect(try await Self.contents(daemon) == before)
        // The same request from the page itself starts the trip: the origin was what refused it.
        let own = try await web.request("POST", "/api/rpc/start", cookie: token, body: Self.changingParams[.start]!)
        #expect(own.status == 200, "\(own.text)")
        #expect((await daemon.status()?["trip"] as? [String: Any])?["kind"] as? String == "business")
        await daemon.stop()
        web.process.stop()
    }

    @Test func theDaemonsRefusalReachesThePageAsItsSentence() async throws {
        let folder = try TemporaryFolder()
        let (daemon, web) = try await Self.quietLog(folder)
        let token = try await web.pair()
        let answer = try await web.request("POST", "/api/rpc/stop", cookie: token, body: "{}")
        let error = try #require((try json(answer.text) as? [String: Any])?["error"] as? [String: Any])
        #expect(answer.status == 422)
        #expect(error["message"] as? String == "no trip is running; start one with trackctl start", "\(answer.text)")
        #expect(error["code"] as? Int == -32010)
        await daemon.stop()
        web.process.stop()
    }
}
