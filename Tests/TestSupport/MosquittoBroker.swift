#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A real mosquitto broker (Debian's `mosquitto`) on a loopback port, for the uplink's tests: anonymous, or with a
/// password file; persistent, so that a subscriber's session and its queued messages outlive a restart.
public final class MosquittoBroker: @unchecked Sendable {
    public let port: Int
    /// A plain MQTT listener on loopback (the same as `port` without TLS).
    public let plainPort: Int
    public let folder: String
    private var process: TestSubprocess?
    private var runs = 0

    /// Writes the broker's configuration into `folder` and starts it on a free port: anonymous on plain MQTT, or
    /// with `tls` (its CA, certificate and key files) on `port` and, when `users` are given, a password for each
    /// (`mosquitto_passwd`) on every listener. With TLS a second, plain listener (`plainPort`) is for the test's
    /// own subscriber.
    public init(folder: String, tls: (ca: String, certificate: String, key: String)? = nil,
                users: [String: String] = [:]) throws {
        self.folder = folder
        port = try LoopbackPort.free()
        var security = "allow_anonymous \(users.isEmpty)\n"
        if !users.isEmpty {
            let file = "\(folder)/passwd"
            for (index, (user, password)) in users.sorted(by: { $0.key < $1.key }).enumerated() {
                let result = try runProgram("/usr/bin/mosquitto_passwd", (index == 0 ? ["-c"] : []) + ["-b", file, user, password])
                guard result.status == 0 else { throw SubprocessError("mosquitto_passwd: \(result.error)") }
            }
            security += "password_file \(file)\n"
        }
        var listeners = "listener \(port) 127.0.0.1\n"
        if let tls {
            listeners += "cafile \(tls.ca)\ncertfile \(tls.certificate)\nkeyfile \(tls.key)\n"
            let plain = try LoopbackPort.free()
            plainPort = plain
            listeners += "listener \(plain) 127.0.0.1\n"
        } else {
            plainPort = port
        }
        // As root, mosquitto would become user mosquitto and could read neither the test's folder nor its key.
        let configuration = """
            user \(String(cString: getpwuid(geteuid()).pointee.pw_name))
            per_listener_settings false
            \(security)persistence true
            persistence_location \(folder)/
            autosave_interval 1
            max_queued_messages 0
            log_type all
            log_dest stderr
            \(listeners)
            """
        try Data(configuration.utf8).write(to: URL(fileURLWithPath: "\(folder)/mosquitto.conf"))
        try start()
    }

    deinit {
        process?.stop()
    }

    /// mosquitto's program: Debian puts it in /usr/sbin.
    public static var executable: String {
        ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].first { FileManager.default.isExecutableFile(atPath: $0) }
            ?? "/usr/sbin/mosquitto"
    }

    /// Starts the broker (again) and waits until every listener takes connections (mosquitto opens them one after
    /// another: the TLS one can be up while the plain one is not yet).
    public func start() throws {
        runs += 1
        let process = try TestSubprocess(executable: Self.executable, arguments: ["-c", "\(folder)/mosquitto.conf"],
                                         outputPath: "\(folder)/mosquitto-\(runs).log")
        self.process = process
        guard waitUntil(upTo: 20, {
            (LoopbackPort.acceptsConnections(port) && LoopbackPort.acceptsConnections(plainPort)) || !process.isRunning
        }), process.isRunning
        else { throw SubprocessError("mosquitto did not start: \(process.output)") }
    }

    /// Stops the broker (SIGTERM: it saves its sessions).
    public func stop() {
        process?.stop()
        process = nil
    }

    /// What the broker logged in all its runs.
    public var log: String {
        (1...max(runs, 1)).map { (try? String(contentsOfFile: "\(folder)/mosquitto-\($0).log", encoding: .utf8)) ?? "" }
            .joined()
    }

    /// Whether a client with `clientID` has subscribed to `topic` (the broker's log says so).
    public func hasSubscription(_ clientID: String, _ topic: String) -> Bool {
        log.contains("\(clientID) 1 \(topic)")
    }

    /// Whether it runs.
    public var isRunning: Bool { process?.isRunning ?? false }

    /// How the client `clientID` left, as the broker logged it once it did: `true` for a goodbye (a DISCONNECT),
    /// `false` for a connection closed without one (the broker publishes the last will); `nil` when it has not
    /// left within the wait.
    public func saidGoodbye(_ clientID: String) async -> Bool? {
        let closed = "Client \(clientID) closed its connection."
        guard await poll(upTo: 30, { log.contains("Client \(clientID) disconnected.") || log.contains(closed) }) else {
            return nil
        }
        return log.contains("Received DISCONNECT from \(clientID)") && !log.contains(closed)
    }
}

/// `mosquitto_sub` on a broker, with a persistent session (QoS 1, a fixed client id): every message published on
/// `topic` while it is subscribed, or while its session waits on the broker, ends up in its output, one
/// `TOPIC PAYLOAD` line each.
public final class MosquittoSubscriber: @unchecked Sendable {
    private let process: TestSubprocess

    public init(port: Int, topic: String, outputPath: String, clientID: String = "trackd-test-subscriber",
                user: (name: String, password: String)? = nil) throws {
        let login = user.map { ["-u", $0.name, "-P", $0.password] } ?? []
        process = try TestSubprocess(
            executable: "/usr/bin/mosquitto_sub",
            arguments: ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-q", "1", "-v", "-c", "-i", clientID] + login,
            outputPath: outputPath)
    }

    deinit {
        process.stop()
    }

    /// The messages received so far, as (topic, payload).
    public var messages: [(topic: String, payload: String)] {
        process.output.split(separator: "\n").compactMap { line -> (topic: String, payload: String)? in
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            return (String(parts[0]), String(parts[1]))
        }
    }

    public func stop() {
        process.stop()
    }

    /// What mosquitto_sub printed, its errors included (a refused connection ends it).
    public var output: String { process.output }

    /// Whether mosquitto_sub still runs.
    public var isRunning: Bool { process.isRunning }
}
