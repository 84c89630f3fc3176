#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes
import Hummingbird

/// Answers only requests addressed to the board: a `Host` that is an IP address, `localhost`, the board's own host
/// name (with or without `.local`), or a name trackd.conf's `web.names` adds. A web page elsewhere that gets its
/// own name to resolve to the board (DNS rebinding) sends that name as `Host`, so it is refused before the pairing
/// form, the session check or the origin check (which compares `Origin` with `Host`) are reached.
struct HostCheckMiddleware: RouterMiddleware {
    /// Names (lower case, without a final dot) the board answers to, besides IP addresses.
    let names: Set<String>

    init(names: Set<String>) {
        self.names = names
    }

    /// `localhost`, this machine's host name and its `.local` name (mDNS), and `configured`.
    static func boardNames(configured: [String]) -> Set<String> {
        var names: Set<String> = ["localhost"]
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count - 1) == 0 {
            let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
            if !host.isEmpty {
                names.insert(host)
                if !host.hasSuffix(".local") { names.insert(host + ".local") }
            }
        }
        for name in configured { names.insert(normalized(name)) }
        return names
    }

    func handle(_ request: Request, context: WebContext,
                next: (Request, WebContext) async throws -> Response) async throws -> Response {
        guard let authority = request.head.authority, Self.accepts(authority, names: names) else {
            return WebResponse.refusal(.misdirectedRequest, "This board does not answer to the name in the address bar. "
                                       + "Open the page by the board's address (such as http://192.168.4.1:8080), "
                                       + "or add the name to web.names in trackd.conf (docs/web.md).")
        }
        return try await next(request, context)
    }

    /// Whether `authority` (`Host`: a name or address, with or without a port) is one the board answers to.
    static func accepts(_ authority: String, names: Set<String>) -> Bool {
        guard let host = hostPart(of: authority), !host.isEmpty else { return false }
        if host.hasPrefix("[") {
            guard host.hasSuffix("]") else { return false }
            return isAddress(String(host.dropFirst().dropLast()), family: AF_INET6)
        }
        return isAddress(host, family: AF_INET) || names.contains(normalized(host))
    }

    /// The host of `authority` without its port; `nil` when the port is not a number.
    static func hostPart(of authority: String) -> String? {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isASCIIDigit)) else { return nil }
            return String(authority[...close])
        }
        guard let colon = authority.lastIndex(of: ":") else { return authority }
        guard authority[authority.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return nil }
        return String(authority[..<colon])
    }

    /// A name as compared: lower case, without the final dot of a fully qualified name.
    static func normalized(_ name: String) -> String {
        let lower = name.lowercased()
        return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }

    /// Whether `text` is an address of `family` written out in full (`inet_pton`, which takes no shortened forms such
    /// as `127.1`).
    static func isAddress(_ text: String, family: Int32) -> Bool {
        var storage = in6_addr()
        return inet_pton(family, text, &storage) == 1
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
