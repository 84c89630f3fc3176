import CCurl
import Synchronization

/// Posts forms to one HTTP(S) server through libcurl, one request at a time, keeping the connection open between
/// them. Blocking: call it from a thread of its own (`BlockingThread`), never from Swift's cooperative threads.
public final class HTTPPoster: Sendable {
    private let handle: Mutex<Handle>
    public let url: String
    /// The CA file an https server's certificate must be signed by; `nil`: the system's.
    public let caFile: String?
    /// Seconds a request may take, connection included.
    public let timeout: Double

    public init(url: String, caFile: String? = nil, timeout: Double = 15) throws(HTTPError) {
        if let reason = ccurl_unavailable() { throw .setup(String(cString: reason)) }
        guard let pointer = ccurl_new() else { throw .setup("libcurl cannot make a handle") }
        handle = Mutex(Handle(pointer: pointer))
        self.url = url
        self.caFile = caFile
        self.timeout = timeout
    }

    deinit {
        handle.withLock { ccurl_free($0.pointer) }
    }

    /// POSTs `form` (already encoded, `a=1&b=2`); the server's HTTP status, or why there was none.
    public func post(_ form: String) throws(HTTPError) -> Int {
        var status = 0
        var error = [CChar](repeating: 0, count: 512)
        let code: Int32 = handle.withLock { handle in
            var answer = 0
            let bytes = Array(form.utf8CString)
            let code = bytes.withUnsafeBufferPointer { body in
                ccurl_post(handle.pointer, url, body.baseAddress, form.utf8.count, Int(timeout * 1000), caFile, &answer, &error)
            }
            status = answer
            return code
        }
        guard code == 0 else {
            throw .transport(url: url, reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return status
    }
}

/// libcurl's handle, used under the poster's lock only.
private struct Handle: @unchecked Sendable {
    var pointer: OpaquePointer?
}
