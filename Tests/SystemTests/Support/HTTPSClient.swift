import Foundation
import TestSupport

/// Requests to trackd-web's HTTPS socket through Debian's `curl`, which trusts only the test's own certificate
/// authority: a request answers only if the server presented the certificate trackd.conf names.
struct HTTPSClient {
    let authority: TestCertificateAuthority
    let folder: String

    /// A response: its status (0 when no HTTP answer came), its header lines and body, and curl's exit status and
    /// sentence.
    struct Response {
        var status: Int
        var headers: [String]
        var text: String
        var curlStatus: Int32
        var curlError: String

        /// The first value of header `name` (any case).
        func header(_ name: String) -> String? {
            headers.first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
    }

    /// `method url` with `headers` and `body`; the session `cookie` when given.
    func send(_ method: String, _ url: String, cookie: String? = nil, headers: [(String, String)] = [],
              body: String? = nil) async throws -> Response {
        let name = UUID().uuidString
        let headerFile = "\(folder)/\(name).headers", bodyFile = "\(folder)/\(name).body"
        var arguments = ["--silent", "--show-error", "--cacert", authority.certificate, "--request", method,
                         "--dump-header", headerFile, "--output", bodyFile, "--write-out", "%{http_code}",
                         "--max-time", "60"]
        if let cookie { arguments += ["--header", "Cookie: trackd_session=\(cookie)"] }
        for (name, value) in headers { arguments += ["--header", "\(name): \(value)"] }
        if let body { arguments += ["--data-binary", body] }
        let result = try await run("/usr/bin/curl", arguments + [url])
        let headerText = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        return Response(status: Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0,
                        headers: headerText.components(separatedBy: "\r\n").filter { !$0.isEmpty },
                        text: (try? String(contentsOfFile: bodyFile, encoding: .utf8)) ?? "",
                        curlStatus: result.status, curlError: result.error)
    }
}
