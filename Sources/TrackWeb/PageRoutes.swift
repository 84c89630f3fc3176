#if canImport(Glibc)
import Glibc
#endif
import ControlSocket
import FoundationEssentials
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import TrackCore
import TrackReports
import TerminalQR
import TrackWebClient

/// The page's routes: pairing (open to all), then, behind a paired session, the page's files, the calls passed on to
/// trackd (`/api/rpc/METHOD`, each checked against `WebAccess`), the live events and the downloads.
public struct PageRoutes: Sendable {
    let registry: DeviceRegistry
    let bridge: ControlBridge
    /// The folder of the page's files (index.html, app.js, app.css).
    let assets: String
    /// Whether the session cookie is marked `Secure` on plain connections too (a proxy in front holds the
    /// certificate); over trackd-web's own HTTPS it always is.
    let secureCookies: Bool
    let logger: Logger
    /// The live event streams open.
    let streams = EventStreams()

    /// The deepest nesting of a call's parameters taken (trackd's own limit, less its request's two levels).
    static let maxDepth = ControlProtocol.maxDepth - 2

    /// A session lasts this long without a new pairing (Chrome keeps a cookie at most 400 days).
    static let sessionLifetime = 400 * 24 * 3600

    /// Names the page answers to besides IP addresses (`HostCheckMiddleware`).
    let hostNames: Set<String>

    /// The car's Wi-Fi (the card image's access point), shown to a driver's device to let another phone join.
    let carWiFi: WiFiNetwork?

    public init(registry: DeviceRegistry, bridge: ControlBridge, assets: String, secureCookies: Bool,
                hostNames: [String], carWiFi: WiFiNetwork? = nil, logger: Logger) {
        self.hostNames = HostCheckMiddleware.boardNames(configured: hostNames)
        self.carWiFi = carWiFi
        self.registry = registry
        self.bridge = bridge
        self.assets = assets
        self.secureCookies = secureCookies
        self.logger = logger
    }

    /// The router: security headers, the board's names, the session check, the routes, then the page's files.
    public func router() -> Router<WebContext> {
        let router = Router(context: WebContext.self)
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: HostCheckMiddleware(names: hostNames))
        router.add(middleware: SessionMiddleware(registry: registry))
        router.add(middleware: CompressedPageMiddleware(root: assets))
        router.add(middleware: FileMiddleware(fileProvider: PageFiles(root: assets, logger: logger),
                                              cacheControl: .init([(MediaType(type: .any), [.noCache])]),
                                              searchForIndexHtml: true))
        router.get("pair") { request, _ in
            WebResponse.html(PairPage.html(code: request.uri.queryParameters["code"].map(String.init) ?? "", message: nil,
                                           claimable: registry.isClaimable,
                                           words: .of(acceptLanguage: request.headers[.acceptLanguage])))
        }
        router.post("api/pair") { request, context in try await pair(request, context: context) }
        router.get("api/me") { _, context in
            guard let device = context.device else { throw HTTPError(.unauthorized) }
            return WebResponse.json(device)
        }
        router.get("api/wifi") { _, context in try wifi(context: context, as: .json) }
        router.get("api/wifi.svg") { _, context in try wifi(context: context, as: .svg) }
        router.post("api/rpc/:method") { request, context in try await rpc(request, context: context) }
        router.get("api/events") { _, context in try events(context: context) }
        router.get("api/export") { request, context in try await export(request, context: context) }
        router.get("api/trips/:id/map.svg") { _, context in try await map(context: context) }
        return router
    }

    /// `/api/wifi`: the car's Wi-Fi for a driver's device (`{"wifi": {name, passphrase, join}}`, `join` the text a
    /// camera joins it from; `{"wifi": null}` when trackd-web was given none, so that the page asks without an error),
    /// or `/api/wifi.svg`, its QR code (404 when there is none).
    func wifi(context: WebContext, as format: WiFiFormat) throws -> Response {
        guard let device = context.device else { throw HTTPError(.unauthorized) }
        guard device.role == .driver else {
            return WebResponse.refusal(.forbidden, "a read-only device is not shown the car's Wi-Fi password")
        }
        switch format {
        case .json:
            return WebResponse.json(WiFiAnswer(wifi: carWiFi.map {
                WiFiAnswer.Network(name: $0.name, passphrase: $0.passphrase, join: $0.joinText)
            }))
        case .svg:
            guard let carWiFi else { return WebResponse.refusal(.notFound, "this board has no Wi-Fi of its own") }
            let code = try QRCode(carWiFi.joinText)
            return Response(status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: code.svg())))
        }
    }

    enum WiFiFormat { case json, svg }

    struct WiFiAnswer: Codable {
        struct Network: Codable {
            var name: String
            var passphrase: String
            var join: String
        }

        var wifi: Network?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(wifi, forKey: .wifi)
        }
    }

    /// The pairing form's answer: a session cookie and the page, or the form again with the reason.
    func pair(_ request: Request, context: WebContext) async throws -> Response {
        let body = try await request.body.collect(upTo: 4096)
        let form = PairForm(urlEncoded: String(buffer: body))
        let words = PairWords.of(acceptLanguage: request.headers[.acceptLanguage])
        let logger = self.logger
        let outcome = try registry.pair(code: form.code, deviceName: form.name, from: context.peer, at: .now,
                                        wallTime: Int64(time(nil))) { attempts in
            logger.wrongPairingCodes(attempts)
        }
        switch outcome {
        case .paired(let device, let token):
            logger.notice("paired a device", metadata: [
                "device": "\(device.id)", "device_name": "\(device.name)", "role": "\(device.role.rawValue)",
                "peer": "\(context.peer)"])
            var response = Response(status: .seeOther, headers: [.location: "/"])
            response.setCookie(Cookie(
                name: SessionMiddleware.cookieName, value: token, maxAge: Self.sessionLifetime, path: "/",
                secure: secureCookies || context.isSecure, httpOnly: true, sameSite: .strict))
            return response
        case .wrongCode:
            let claimable = registry.isClaimable
            return WebResponse.html(PairPage.html(code: "", message: claimable ? words.wrongOwnerCode : words.wrongCode,
                                                  claimable: claimable, words: words),
                                    status: .forbidden)
        case .throttled(let wait):
            let seconds = max(1, Int(wait.components.seconds))
            var response = WebResponse.html(PairPage.html(code: form.code, message: words.throttled(seconds),
                                                          claimable: registry.isClaimable, words: words),
                                            status: .tooManyRequests)
            response.headers[.retryAfter] = String(seconds)
            return response
        }
    }

    /// `/api/rpc/METHOD`: the body's parameters passed to trackd, its answer passed back; a refusal as its sentence.
    func rpc(_ request: Request, context: WebContext) async throws -> Response {
        guard let device = context.device else { throw HTTPError(.unauthorized) }
        let name = context.parameters.get("method") ?? ""
        guard let method = ControlMethod(rawValue: name) else {
            return WebResponse.refusal(.notFound, "trackd has no request called '\(name)'")
        }
        guard WebAccess.allows(device.role, method) else {
            return WebResponse.refusal(.forbidden, device.role == .viewer
                ? "This device is paired to read the log only: it cannot change anything."
                : "The page does not offer '\(name)'.")
        }
        let body = try await request.body.collect(upTo: ControlProtocol.maxLineLength)
        let params: JSONValue
        // Depth is bounded before decoding, whose work grows far faster than the depth (trackd bounds its lines the
        // same way; the page never sends more than three levels).
        if JSONNesting.depth(of: body.readableBytesView, stoppingAbove: Self.maxDepth) > Self.maxDepth {
            return WebResponse.refusal(.badRequest, "the request's parameters nest arrays and objects deeper than "
                                       + "\(Self.maxDepth) levels")
        }
        if body.readableBytes == 0 {
            params = .object([:])
        } else if case .some(.object(let object)) = try? JSONDecoder().decode(JSONValue.self, from: Data(body.readableBytesView)) {
            params = .object(object)
        } else {
            return WebResponse.refusal(.badRequest, "the request's parameters are not a JSON object")
        }
        return await answer {
            try await bridge.call(method, params: params, result: JSONValue.self, for: device)
        }
    }

    /// `/api/events`: trackd's status, then its live notifications (fixes, source, trips, alerts) as Server-Sent
    /// Events, one `data:` line per notification as the control socket sent it. Bounded by `EventStreams`: a device's
    /// newer stream ends its oldest (which is told `superseded`), and beyond the total a new one is refused.
    func events(context: WebContext) throws -> Response {
        guard let device = context.device else { throw HTTPError(.unauthorized) }
        guard let ticket = streams.open(device: device.id) else {
            var refusal = WebResponse.refusal(.serviceUnavailable, "\(EventStreams.total) pages already follow the car "
                                              + "live, the most the board serves: close one, or try again later.")
            refusal.headers[.retryAfter] = "30"
            return refusal
        }
        let bridge = self.bridge
        let streams = self.streams
        let logger = self.logger
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                defer { streams.close(ticket.id) }
                // The watch runs apart and hands its lines over, so that a newer stream of the device can end this
                // one whether or not trackd has anything to say.
                let (pieces, continuation) = AsyncStream.makeStream(of: StreamPiece.self, bufferingPolicy: .bufferingNewest(256))
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask {
                        do {
                            try await bridge.watch(for: device) { line in continuation.yield(.line(line)) }
                            continuation.yield(.ended("trackd closed the connection"))
                        } catch let error as ControlSocketError {
                            logger.info("live events ended", metadata: ["reason": "\(error)"])
                            continuation.yield(.ended(Self.trackdGone(error)))
                        } catch is CancellationError {
                        }
                        continuation.finish()
                    }
                    group.addTask {
                        for await _ in ticket.superseded {
                            continuation.yield(.superseded)
                        }
                    }
                    loop: for await piece in pieces {
                        switch piece {
                        case .line(let line):
                            try await writer.write(Self.event(line))
                        case .ended(let message):
                            try await writer.write(Self.notification("ended", message))
                            break loop
                        case .superseded:
                            try await writer.write(Self.notification("superseded", "This device follows the car in a "
                                                                     + "newer page: live data goes there."))
                            break loop
                        }
                    }
                    group.cancelAll()
                    continuation.finish()
                }
                try await writer.finish(nil)
            })
    }

    /// What the event stream carries from its watch to its writer.
    enum StreamPiece: Sendable {
        case line(ByteBuffer)
        case ended(String)
        case superseded
    }

    /// An event of trackd-web's own: `{"method": method, "params": {"message": message}}`.
    static func notification(_ method: String, _ message: String) -> ByteBuffer {
        let value = JSONValue.object(["method": .string(method), "params": .object(["message": .string(message)])])
        return event(WebResponse.jsonBytes(value) ?? ByteBuffer(string: "{}"))
    }

    /// `/api/export?period=2026-11&kind=all&format=csv`: the file `trackctl export` writes for the same period, made
    /// by the same renderer from the same report.
    func export(_ request: Request, context: WebContext) async throws -> Response {
        guard let device = context.device else { throw HTTPError(.unauthorized) }
        let query = request.uri.queryParameters
        guard let format = ReportFormat(rawValue: query["format"].map(String.init) ?? "csv") else {
            return WebResponse.refusal(.badRequest, "the format is one of csv, gpx, geojson and html")
        }
        let period: LogPeriod
        do {
            period = try LogPeriod(parsing: query["period"].map(String.init) ?? "this-month")
        } catch {
            return WebResponse.refusal(.badRequest, "\(error)")
        }
        let kind = query["kind"].flatMap { KindFilter(rawValue: String($0)) } ?? .all
        let report: MileageReport
        do {
            report = try await bridge.call(.export, params: TripsParams(period: period, kind: kind),
                                           result: MileageReport.self, for: device)
        } catch {
            return refusal(for: error)
        }
        let text: String
        do {
            text = try ReportRenderer.render(report, as: format)
        } catch {
            return WebResponse.refusal(.unprocessableContent, "\(error)")
        }
        let name = "trackd-\(report.period)\(kind == .all ? "" : "-\(kind.rawValue)").\(format.fileExtension)"
        var headers: HTTPFields = [.contentType: format.mediaType]
        if query["inline"] == nil {
            headers[.contentDisposition] = "attachment; filename=\"\(name)\""
        }
        if format == .html {
            headers[.contentSecurityPolicy] = SecurityHeadersMiddleware.reportPolicy
            headers[SecurityHeadersMiddleware.frameOptions] = "SAMEORIGIN"
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// `/api/trips/ID/map.svg`: the trip's map as the printable report draws it (its day's report, from trackd).
    func map(context: WebContext) async throws -> Response {
        guard let device = context.device else { throw HTTPError(.unauthorized) }
        guard let number = context.parameters.get("id", as: Int64.self) else {
            return WebResponse.refusal(.badRequest, "a trip is named by its number")
        }
        let id = TripID(rawValue: number)
        let report: MileageReport
        do {
            let detail = try await bridge.call(.show, params: TripIDParams(id: id), result: TripDetail.self, for: device)
            guard let date = detail.trip.date else {
                return WebResponse.refusal(.notFound, "no map: trip \(id) has no fix yet")
            }
            report = try await bridge.call(.export, params: TripsParams(period: .days(from: date, to: date), kind: .all),
                                           result: MileageReport.self, for: device)
        } catch {
            return refusal(for: error)
        }
        switch ReportRenderer.tripMap(id, in: report) {
        case .svg(let svg):
            return Response(status: .ok, headers: [.contentType: "image/svg+xml"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
        case .none(let reason):
            return WebResponse.refusal(.notFound, reason)
        }
    }

    /// `{"result": …}` from `call`, or its failure as a refusal.
    private func answer(_ call: () async throws -> JSONValue) async -> Response {
        do {
            return WebResponse.json(["result": try await call()])
        } catch {
            return refusal(for: error)
        }
    }

    /// One Server-Sent Event whose data is `line` (one line of JSON).
    static func event(_ line: ByteBuffer) -> ByteBuffer {
        var event = ByteBuffer(string: "data: ")
        var line = line
        event.writeBuffer(&line)
        event.writeString("\n\n")
        return event
    }

    /// A failure to reach trackd, or trackd's refusal, as the page shows it (its journal has the detail: the page
    /// is not told the board's paths or trackd-web's errors).
    func refusal(for error: any Error) -> Response {
        switch error {
        case ControlSocketError.remote(let description):
            return WebResponse.refusal(.unprocessableContent, description.text, code: description.code)
        case let error as ControlSocketError:
            logger.warning("trackd did not answer", metadata: ["reason": "\(error)"])
            return WebResponse.refusal(.badGateway, Self.trackdGone(error))
        default:
            return WebResponse.failed(error, logger: logger)
        }
    }

    /// Why trackd cannot be reached, in words for the page: no path, no error text of the system's.
    static func trackdGone(_ error: ControlSocketError) -> String {
        switch error {
        case .daemonNotRunning: "trackd is not running on the board (the board's journal says why: journalctl -u trackd)."
        case .permissionDenied: "trackd-web may not use trackd's control socket: it must be in the trackd group."
        case .connectionClosed: "trackd closed the connection (it may be restarting): try again in a moment."
        case .lineTooLong, .badResponse: "trackd's answer could not be read: see trackd-web's journal."
        case .remote(let description): description.text
        }
    }
}
