import Foundation

/// A plain HTTP server on loopback (Python's http.server, started by the test) that keeps every request's path
/// and form, one line each, and answers 200 — or `failing` while a test wants it to (503), or not at all once
/// stopped. For the OsmAnd uplink's tests, in the role of a Traccar server.
public final class HTTPReceiver: @unchecked Sendable {
    public let port: Int
    public let folder: String
    private var process: TestSubprocess?
    private var runs = 0

    private static let script = #"""
        import os, sys, urllib.parse
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        folder, port = sys.argv[1], int(sys.argv[2])
        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def answer(self, body):
                status = 503 if os.path.exists(os.path.join(folder, "failing")) else 200
                if status == 200:
                    with open(os.path.join(folder, "requests.txt"), "a") as out:
                        out.write(self.command + " " + self.path + " " + body + "\n")
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                self.answer(self.rfile.read(length).decode())
            def do_GET(self):
                self.answer(urllib.parse.urlsplit(self.path).query)
            def log_message(self, *args):
                pass
        ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
        """#

    public init(folder: String) throws {
        self.folder = folder
        port = try LoopbackPort.free()
        try Data(Self.script.utf8).write(to: URL(fileURLWithPath: "\(folder)/receiver.py"))
        try start()
    }

    deinit {
        process?.stop()
    }

    /// Starts the server (again) and waits until it takes connections.
    public func start() throws {
        runs += 1
        let process = try TestSubprocess(executable: "/usr/bin/python3", arguments: ["\(folder)/receiver.py", folder, "\(port)"],
                                         outputPath: "\(folder)/receiver-\(runs).log")
        self.process = process
        guard waitUntil(upTo: 20, { LoopbackPort.acceptsConnections(port) || !process.isRunning }), process.isRunning
        else { throw SubprocessError("the HTTP receiver did not start: \(process.output)") }
    }

    public func stop() {
        process?.stop()
        process = nil
    }

    /// Whether it answers 503 to every request (kept nothing of them).
    public var failing: Bool {
        get { FileManager.default.fileExists(atPath: "\(folder)/failing") }
        set {
            if newValue {
                FileManager.default.createFile(atPath: "\(folder)/failing", contents: Data())
            } else {
                try? FileManager.default.removeItem(atPath: "\(folder)/failing")
            }
        }
    }

    /// The requests it answered 200, as their form fields.
    public var forms: [[String: String]] {
        let text = (try? String(contentsOfFile: "\(folder)/requests.txt", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let body = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).dropFirst(2).first ?? ""
            var fields: [String: String] = [:]
            for pair in body.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let key = parts.first?.removingPercentEncoding else { continue }
                fields[key] = parts.count > 1 ? parts[1].removingPercentEncoding : ""
            }
            return fields
        }
    }
}
