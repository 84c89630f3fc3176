#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization
import TrackCore

/// The page's text files (HTML, JavaScript, CSS, SVG) gzip-compressed for a browser that takes it
/// (`Accept-Encoding: gzip`): a quarter of the bytes on a phone's slow link. Each file is compressed once and kept
/// while its size and modification time stay the same; its `ETag` lets a browser that has it revalidate it with a
/// `304`. Only plain names in the page's folder (`/`, `/app.js`), regular files, no links; anything else, a range
/// request or a browser without gzip goes on to `FileMiddleware`, which serves the file as it is.
struct CompressedPageMiddleware: RouterMiddleware {
    typealias Context = WebContext

    /// The page's folder.
    let root: String
    let cache = CompressedFiles()

    /// The types of the files compressed, by extension.
    static let types = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
                        "css": "text/css; charset=utf-8", "svg": "image/svg+xml"]

    func handle(_ request: Request, context: WebContext,
                next: (Request, WebContext) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head, request.headers[.range] == nil,
              Self.acceptsGzip(request.headers[values: .acceptEncoding]),
              let name = Self.fileName(request.uri.path), let type = Self.type(of: name),
              let file = cache.file(root: root, name: name) else {
            return try await next(request, context)
        }
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentEncoding] = "gzip"
        headers[.vary] = "Accept-Encoding"
        headers[.cacheControl] = "no-cache"
        headers[.eTag] = file.tag
        if let known = request.headers[.ifNoneMatch],
           known.split(separator: ",").contains(where: { String($0).trimmingWhitespace == file.tag }) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentLength] = "\(file.bytes.count)"
        let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes))
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Whether `Accept-Encoding` takes gzip (`gzip`, `gzip;q=0.5`, `*`; not `gzip;q=0`).
    static func acceptsGzip(_ values: [String]) -> Bool {
        for value in values {
            for item in value.split(separator: ",") {
                let parts = item.split(separator: ";").map { String($0).trimmingWhitespace.lowercased() }
                guard let coding = parts.first, coding == "gzip" || coding == "*" else { continue }
                let refused = parts.dropFirst().contains { parameter in
                    let compact = parameter.filter { $0 != " " }
                    return compact.hasPrefix("q=") && Double(compact.dropFirst(2)) == 0
                }
                if !refused { return true }
            }
        }
        return false
    }

    /// The file a request's path names: `index.html` for `/`, else a plain name (letters, digits, `-`, `_`, one
    /// dot before the extension) directly in the page's folder; `nil` for anything else.
    static func fileName(_ path: String) -> String? {
        if path == "/" { return "index.html" }
        guard path.hasPrefix("/") else { return nil }
        let name = path.dropFirst()
        guard !name.isEmpty, name.count <= 64, !name.hasPrefix("."),
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }),
              name.filter({ $0 == "." }).count == 1 else { return nil }
        return String(name)
    }

    /// The type of a file compressed, by its extension; `nil` for files sent as they are.
    static func type(of name: String) -> String? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return types[String(name[name.index(after: dot)...])]
    }
}

/// The compressed files, each kept with the size and modification time it was compressed at.
final class CompressedFiles: Sendable {
    struct File: Sendable {
        let size: Int
        let modified: timespec
        let bytes: [UInt8]
        let tag: String
    }

    private let files = Mutex<[String: File]>([:])

    /// `name` in `root` compressed; `nil` if it is not a regular file there (a link, a folder, missing) or cannot
    /// be read.
    func file(root: String, name: String) -> File? {
        let path = (root.hasSuffix("/") ? root : root + "/") + name
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        if let kept = files.withLock({ $0[name] }), kept.size == size,
           kept.modified.tv_sec == info.st_mtim.tv_sec, kept.modified.tv_nsec == info.st_mtim.tv_nsec {
            return kept
        }
        guard let data = FileManager.default.contents(atPath: path), data.count == size,
              let bytes = Gzip.compress(Array(data)) else { return nil }
        let file = File(size: size, modified: info.st_mtim, bytes: bytes,
                        tag: "\"gz-\(size)-\(info.st_mtim.tv_sec)-\(info.st_mtim.tv_nsec)\"")
        files.withLock { $0[name] = file }
        return file
    }
}
