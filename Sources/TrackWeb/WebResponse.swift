import FoundationEssentials
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import TrackReports
import TrackCore

/// The answers trackd-web builds: JSON the way the control socket writes it, and refusals as a plain sentence.
enum WebResponse {
    /// `value` as compact JSON with sorted keys; `nil` for a value JSON cannot hold (a number that is not finite).
    static func jsonBytes(_ value: some Encodable) -> ByteBuffer? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return (try? encoder.encode(value)).map { ByteBuffer(bytes: $0) }
    }

    /// An answer of `value` as JSON.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        guard let bytes = jsonBytes(value) else {
            return refusal(.internalServerError, "trackd-web could not write its answer as JSON")
        }
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: ResponseBody(byteBuffer: bytes))
    }

    /// An HTML page.
    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// A refusal: `{"error": {"message": sentence}}`, which the page shows as it is.
    static func refusal(_ status: HTTPResponse.Status, _ sentence: String, code: Int? = nil) -> Response {
        json(ErrorBody(error: .init(code: code, message: sentence)), status: status)
    }

    /// A failure of trackd-web's own: logged with its error (cut to a few lines), answered with a sentence that
    /// echoes nothing of the request.
    static func failed(_ error: any Error, logger: Logger) -> Response {
        logger.error("a request failed", metadata: ["error": "\(String(describing: error).prefix(600))"])
        return refusal(.internalServerError, "trackd-web could not answer this request; its journal says why "
                       + "(journalctl -u trackd-web).")
    }

    /// The answer to a device without a session: a page that says how to pair for a browser's navigation, else JSON.
    static func notPaired(_ request: Request) -> Response {
        // In the browser's language (the page says its own words for a call's refusal: web/core.js).
        let words = PairWords.of(acceptLanguage: request.headers[.acceptLanguage])
        let sentence = words.notPaired
        let accept = request.headers[.accept] ?? ""
        guard accept.contains("text/html") else { return refusal(.unauthorized, sentence) }
        let html = """
            <!doctype html><html lang="\(words.language.rawValue)"><meta charset="utf-8"><meta name="viewport" \
            content="width=device-width"><title>trackd</title><p>\(MarkupText.escape(sentence))</p></html>
            """
        return self.html(html, status: .unauthorized)
    }

    struct ErrorBody: Encodable {
        struct Detail: Encodable {
            var code: Int?
            var message: String
        }
        var error: Detail
    }
}
