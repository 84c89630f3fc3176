#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes
import Hummingbird
import TrackWebClient

/// Lets through only requests of a paired device: the session cookie must name a device that is not revoked, and a
/// request that may change something (anything but GET and HEAD) must come from the page itself (its `Origin`, or
/// else `Sec-Fetch-Site: same-origin`), so that no other site the phone visits can start, stop or edit a trip.
/// The pairing page, its stylesheet and its one call are open: they are how a device gets its session. So are the
/// manifest and its icons, which a browser fetches without the session cookie to put the page on the home screen.
struct SessionMiddleware: RouterMiddleware {
    /// The session cookie's name.
    static let cookieName = "trackd_session"
    /// Paths served without a session.
    static let openPaths: Set<String> = ["/pair", "/pair.css", "/api/pair", "/manifest.json", "/icon.svg", "/icon-192.png",
                                         "/icon-512.png", "/icon-maskable-512.png"]

    let registry: DeviceRegistry

    func handle(_ request: Request, context: WebContext,
                next: (Request, WebContext) async throws -> Response) async throws -> Response {
        let unsafe = request.method != .get && request.method != .head
        if unsafe && !Self.isSameOrigin(request, overTLS: context.isSecure) {
            return WebResponse.refusal(.forbidden, "This request did not come from trackd's own page, so it was "
                                       + "refused: open the page from the board's address and try again.")
        }
        if Self.openPaths.contains(request.uri.path) {
            return try await next(request, context)
        }
        guard let token = request.cookies[Self.cookieName]?.value,
              let device = try registry.device(token: token, wallTime: Int64(time(nil))) else {
            return WebResponse.notPaired(request)
        }
        var context = context
        context.device = device
        return try await next(request, context)
    }

    /// Whether a request that may change something comes from a page of this very server: over trackd-web's own
    /// HTTPS only an `https` origin is; on a plain socket either (a proxy in front may hold the certificate).
    static func isSameOrigin(_ request: Request, overTLS: Bool) -> Bool {
        guard let host = request.head.authority, !host.isEmpty else { return false }
        if let origin = request.headers[.origin] {
            return origin == "https://\(host)" || (!overTLS && origin == "http://\(host)")
        }
        if let fetchSite = HTTPField.Name("Sec-Fetch-Site").flatMap({ request.headers[$0] }) {
            return fetchSite == "same-origin"
        }
        return false
    }
}
