import Foundation

/// A real SMTP server on the loopback interface for tests: Debian's python3-aiosmtpd with its `Mailbox` handler,
/// which keeps each message it accepts as a file in a maildir (the server adds `X-MailFrom`, `X-RcptTo` and
/// `X-Peer` headers). No TLS, no login: msmtp's configuration from `msmtpConfiguration` says `tls off`, `auth off`.
public final class SMTPServer: @unchecked Sendable {
    /// The port it listens on (or will, once started), on 127.0.0.1.
    public let port: Int
    /// The maildir the messages go to.
    public let maildir: String
    private let folder: TemporaryFolder
    private var process: TestSubprocess?

    /// A server for a free port, with its maildir in `folder`; not started yet.
    public init(in folder: TemporaryFolder) throws {
        self.folder = folder
        port = try LoopbackPort.free()
        maildir = folder.file("maildir-\(port)")
    }

    deinit {
        stop()
    }

    /// Starts it and waits until it accepts connections; throws, with what it said, when it does not.
    public func start() async throws {
        stop()
        let server = try TestSubprocess(
            executable: "/usr/bin/python3",
            arguments: ["-m", "aiosmtpd", "-n", "-l", "127.0.0.1:\(port)", "-c", "aiosmtpd.handlers.Mailbox", maildir],
            outputPath: folder.file("aiosmtpd-\(port)-\(UUID().uuidString.prefix(8)).log"))
        process = server
        let port = self.port
        guard await poll(upTo: 30, { LoopbackPort.acceptsConnections(port) }) else {
            let said = server.output
            stop()
            throw SubprocessError("aiosmtpd did not listen on 127.0.0.1:\(port) (is python3-aiosmtpd installed? "
                                  + "scripts/deps --test): \(said)")
        }
    }

    /// Stops it (and waits until it has gone); safe to call when it is not running.
    public func stop() {
        process?.stop()
        process = nil
    }

    /// The messages it accepted, oldest first, as it stored them.
    public func messages() throws -> [Data] {
        let new = maildir + "/new"
        guard FileManager.default.fileExists(atPath: new) else { return [] }
        let names = try FileManager.default.contentsOfDirectory(atPath: new)
        let files = try names.map { name -> (Date, Data) in
            let path = new + "/" + name
            let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            return (modified ?? .distantPast, try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        return files.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Writes an msmtp configuration file for this server (plain SMTP, no login; mode 0600, as msmtp wants it) at
    /// `path`, with `from` as the account's sender; returns the path.
    @discardableResult
    public func msmtpConfiguration(at path: String, from: String = "trackd@example.org") throws -> String {
        let text = """
            defaults
            tls off
            auth off
            timeout 30

            account default
            host 127.0.0.1
            port \(port)
            from \(from)

            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        return path
    }
}
