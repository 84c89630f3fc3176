import HTTPTypes
import Hummingbird

/// Headers on every answer that keep the page to itself: scripts, styles, pictures and connections only from the
/// board (nothing from the internet, nothing injected), no framing by another site, no referrer, no guessing of
/// types; and API answers never cached.
struct SecurityHeadersMiddleware: RouterMiddleware {
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; manifest-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    func handle(_ request: Request, context: WebContext,
                next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            response = WebResponse.refusal(error.status, error.body ?? error.status.reasonPhrase)
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        if request.uri.path.hasPrefix("/api/") || response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}
