import HTTPTypes
import Hummingbird
import NIOCore

/// Headers on every answer that keep the page to itself: scripts, styles, pictures, frames and connections only from
/// the board (nothing from the internet, nothing injected), no framing by another site, no referrer to other sites,
/// no guessing of types; and API answers never cached.
struct SecurityHeadersMiddleware: RouterMiddleware {
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; frame-src 'self'; manifest-src 'self'; form-action 'self'; frame-ancestors 'none'; "
        + "base-uri 'none'"

    static let frameOptions = HTTPField.Name("X-Frame-Options")!
    /// The printable report: its own inline style and nothing else, shown in a frame of the page only.
    static let reportPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'"

    func handle(_ request: Request, context: WebContext,
                next: (Request, WebContext) async throws -> Response) async throws -> Response {
        var response: Response
        // Every answer gets the headers, a refusal or a failure too.
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            response = WebResponse.refusal(error.status, error.body ?? error.status.reasonPhrase)
        } catch is NIOTooManyBytesError {
            response = WebResponse.refusal(.contentTooLarge, "This request is larger than the page ever sends, so it "
                                           + "was not read.")
        } catch let error as any HTTPResponseError {
            response = WebResponse.refusal(error.status, error.status.reasonPhrase)
        } catch {
            response = WebResponse.failed(error, logger: context.logger)
        }
        // A route that set its own policy keeps it (the printable report: its inline style, framed by the page).
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
            response.headers[Self.frameOptions] = "DENY"
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        // No referrer to other sites; within the page, browsers then send the `Origin` that SessionMiddleware checks
        // (under `no-referrer` Chromium sends `Origin: null` with the pairing form).
        response.headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        if request.uri.path.hasPrefix("/api/") || response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}
