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

    /// A session lasts this long without a new pairing (Chrome keeps a cookie at most 400 days).
    static let sessionLifetime = 400 * 24 * 3600

    public init(registry: DeviceRegistry, bridge: ControlBridge, assets: String, secureCookies: Bool, logger: Logger) {
        self.registry = registry
        self.bridge = bridge
        self.assets = assets
        self.secureCookies = secureCookies
        self.logger = logger
    }

    /// The router: security headers, the session check, the routes, then the page's files.
    public func router() -> Router<WebContext> {
        let router = Router(context: WebContext.self)
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: SessionMiddleware(registry: registry))
        router.add(middleware: FileMiddleware(assets, cacheControl: .init([(MediaType(type: .any), [.noCache])]),
                                              searchForIndexHtml: true, logger: logger))
        router.get("pair") { request, _ in
            WebResponse.html(PairPage.html(code: request.uri.queryParameters["code"].map(String.init) ?? "", message: nil))
        }
        router.post("api/pair") { request, context in try await pair(request, context: context) }
        router.get("api/me") { _, context in
            guard let device = context.device else { throw HTTPError(.unauthorized) }
            return WebResponse.json(device)
        }
        router.post("api/rpc/:method") { request, context in try await rpc(request, context: context) }
        router.get("api/events") { _, context in try events(context: context) }
        router.get("api/export") { request, context in try await export(request, context: context) }
        router.get("api/trips/:id/map.svg") { _, context in try await map(context: context) }
        return router
    }

    /// The pairing form's answer: a session cookie and the page, or the form again with the reason.
    func pair(_ request: Request, context: WebContext) async throws -> Response {
        let body = try await request.body.collect(upTo: 4096)
        let form = PairForm(urlEncoded: String(buffer: body))
        let outcome = try registry.pair(code: form.code, deviceName: form.name, at: .now, wallTime: Int64(time(nil)))
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
        case .wrongCode(let inARow):
            logger.warning("wrong pairing code", metadata: ["peer": "\(context.peer)", "in_a_row": "\(inARow)"])
            return WebResponse.html(PairPage.html(code: "", message: "That code is not valid (wrong, used or older than "
                                           + "ten minutes). Check it, or make a new one with 'trackctl web pair'."),
                             status: .forbidden)
        case .throttled(let wait):
            let seconds = max(1, Int(wait.components.seconds))
            logger.warning("pairing attempt refused: too many wrong codes", metadata: [
                "peer": "\(context.peer)", "retry_after_s": "\(seconds)"])
            var response = WebResponse.html(PairPage.html(code: form.code, message: "Too many wrong codes in a row: try "
                                                   + "again in \(seconds) s, or make a new code on the board."),
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
    /// Events, one `data:` line per notification as the control socket sent it.
    func events(context: WebContext) throws -> Response {
        guard let device = context.device else { throw HTTPError(.unauthorized) }
        let bridge = self.bridge
        let logger = self.logger
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                do {
                    try await bridge.watch(for: device) { line in
                        try await writer.write(Self.event(line))
                    }
                } catch let error as ControlSocketError {
                    logger.info("live events ended", metadata: ["reason": "\(error)"])
                    let ended = JSONValue.object([
                        "method": .string("ended"), "params": .object(["message": .string("\(error)")]),
                    ])
                    try await writer.write(Self.event(WebResponse.jsonBytes(ended) ?? ByteBuffer(string: "{}")))
                }
                try await writer.finish(nil)
            })
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
            return Self.refusal(for: error)
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
            return Self.refusal(for: error)
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
            return Self.refusal(for: error)
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

    /// A failure to reach trackd, or trackd's refusal, as the page shows it.
    static func refusal(for error: any Error) -> Response {
        switch error {
        case ControlSocketError.remote(let description):
            WebResponse.refusal(.unprocessableContent, description.text, code: description.code)
        case let error as ControlSocketError:
            WebResponse.refusal(.badGateway, "trackd did not answer: \(error)")
        default:
            WebResponse.refusal(.internalServerError, "trackd-web failed: \(error)")
        }
    }
}
