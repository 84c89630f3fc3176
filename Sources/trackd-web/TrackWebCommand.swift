import ArgumentParser
import FoundationEssentials
import Logging
import ServiceLifecycle
import TrackConfig
import TrackCore
import TrackJournal
import TrackWeb
import TrackWebClient
import UnixSignals

/// `trackd-web`: the driver's page, served from the board to paired phones, speaking to trackd only through its
/// control socket (docs/web.md).
@main
struct TrackWebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trackd-web",
        abstract: "The driver's page for trackd: the car's log on a paired phone, served by the board.",
        discussion: """
            Under systemd it is started by its sockets (trackd-web.socket for the page, trackd-web-admin.socket \
            for trackctl web; trackd-web-https.socket for the page over HTTPS, with the certificate and key \
            of trackd.conf's web: section) and exits after --idle-exit seconds without a connection. By hand: \
            trackd-web --listen 127.0.0.1:8380 --admin-socket /tmp/web-admin.sock.
            """)

    @Option(help: ArgumentHelp("Serve the page on this address (HOST:PORT; [IPv6]:PORT; again for more). Not with "
                               + "systemd's sockets.", valueName: "address"))
    var listen: [String] = []

    @Option(help: ArgumentHelp("Serve the page over HTTPS on this address (HOST:PORT; again for more), with the "
                               + "certificate and key of trackd.conf's web: section. Not with systemd's sockets.",
                               valueName: "address"))
    var listenTLS: [String] = []

    @Option(help: ArgumentHelp("trackd's configuration file, for its web: section (default: "
                               + "$CONFIGURATION_DIRECTORY/trackd.conf, else /etc/trackd/trackd.conf; none there: no HTTPS).",
                               valueName: "path"))
    var config: String?

    @Option(help: ArgumentHelp("Serve trackctl web on this Unix socket (made 0660). Not with systemd's sockets.",
                               valueName: "path"))
    var adminSocket: String?

    @Option(help: ArgumentHelp("trackd's control socket (default: $TRACKD_SOCKET, else /run/trackd/control.sock).",
                               valueName: "path"))
    var controlSocket: String?

    @Option(help: ArgumentHelp("Folder for the paired devices' file (default: $STATE_DIRECTORY under systemd, else "
                               + "/var/lib/trackd-web).", valueName: "path"))
    var stateDir: String?

    @Option(help: ArgumentHelp("Folder of the page's files (default: /usr/share/trackd/web).", valueName: "path"))
    var assets = "/usr/share/trackd/web"

    @Option(help: ArgumentHelp("A file with the board's owner code: while no device has paired, the first that gives it "
                               + "pairs as the driver (default: systemd's credential owner-code, if given).",
                               valueName: "path"))
    var ownerCodeFile: String?

    @Option(name: .customLong("car-wifi-file"), help: ArgumentHelp("A file with the car's Wi-Fi (its name, then its passphrase, a line each), shown to a "
                               + "driver's device and with each pairing code (default: systemd's credential car-wifi).",
                               valueName: "path"))
    var carWiFiFile: String?

    @Option(help: ArgumentHelp("Exit after this many seconds without a connection; 0 = never.", valueName: "seconds"))
    var idleExit = 300

    @Flag(help: "Mark the session cookie Secure (the page is reached over HTTPS, through a proxy that holds the certificate).")
    var secureCookies = false

    @Option(help: "Least important messages logged: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    func validate() throws {
        for address in listen where (try? Self.parse(address)) == nil {
            throw ValidationError("--listen \(address): write HOST:PORT, such as 192.168.4.1:8380 or [::1]:8380")
        }
        for address in listenTLS where (try? Self.parse(address)) == nil {
            throw ValidationError("--listen-tls \(address): write HOST:PORT, such as 192.168.4.1:8443 or [::1]:8443")
        }
        if idleExit < 0 { throw ValidationError("--idle-exit is a number of seconds, 0 or more") }
    }

    func run() async throws {
        LogDestination.bootstrap(levels: LogLevelSwitch(logLevel), identifier: "trackd-web")
        let logger = Logger(label: "trackd-web")
        let environment = ProcessInfo.processInfo.environment
        let stateDirectory = stateDir ?? environment["STATE_DIRECTORY"]?.split(separator: ":").first.map(String.init)
            ?? "/var/lib/trackd-web"
        let controlSocket = controlSocket ?? environment["TRACKD_SOCKET"] ?? "/run/trackd/control.sock"
        do {
            var listeners = try SocketActivation.passedListeners()
            if listeners.isEmpty {
                listeners = try listen.map { WebListener(endpoint: try Self.parse($0), purpose: .page) }
                listeners += try listenTLS.map { WebListener(endpoint: try Self.parse($0), purpose: .securePage) }
                if let adminSocket { listeners.append(WebListener(endpoint: .unixPath(adminSocket), purpose: .admin)) }
            } else if !listen.isEmpty || !listenTLS.isEmpty || adminSocket != nil {
                logger.warning("systemd passed sockets: --listen, --listen-tls and --admin-socket are not used")
            }
            guard !listeners.isEmpty else { throw WebError.nothingToListenOn }
            let (settings, configurationPath) = try webSettings(environment: environment)
            let tls = try settings.tlsFiles.map { files throws(WebError) in
                try WebTLS.configuration(certificate: files.certificate, key: files.key)
            }
            if tls == nil, let secure = listeners.first(where: \.isTLS) {
                throw WebError.noCertificate(socket: "\(secure.endpoint)", configuration: configurationPath)
            }
            if tls != nil && !listeners.contains(where: \.isTLS) {
                logger.notice("trackd.conf names a certificate, but no socket is for HTTPS: enable trackd-web-https.socket",
                              metadata: ["configuration": "\(configurationPath)"])
            }
            let registry = try DeviceRegistry(path: stateDirectory + "/devices.sqlite",
                                              ownerCode: try ownerCode(environment: environment))
            if registry.isClaimable {
                logger.notice("no device has paired: the first that gives the owner code claims the board")
            }
            let addresses = ListeningAddresses()
            let carWiFi = try self.carWiFi(environment: environment)
            let page = PageRoutes(registry: registry, bridge: ControlBridge(socketPath: controlSocket), assets: assets,
                                  secureCookies: secureCookies, hostNames: settings.names, carWiFi: carWiFi, logger: logger)
            let admin = AdminRoutes(registry: registry, pageAddresses: { addresses.pageURLs() }, carWiFi: carWiFi,
                                    logger: logger)
            let server = WebServer(
                listeners: listeners, tls: tls, page: page.router(), admin: admin.router(), addresses: addresses,
                // Up while a code waits, and while the board may be claimed: the throttle on wrong codes lives in memory.
                idleExit: idleExit == 0 ? nil : .seconds(idleExit),
                busy: { registry.hasPendingCodes(at: $0) || registry.isClaimable },
                logger: logger)
            // The server ending by itself (idle) is a normal exit, status 0.
            let group = ServiceGroup(configuration: .init(
                services: [.init(service: server, successTerminationBehavior: .gracefullyShutdownGroup)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await group.run()
        } catch let error as WebError {
            logger.critical("\(error)")
            throw ExitCode(1)
        }
    }

    /// The owner code: `--owner-code-file`, else systemd's credential `owner-code` (the card image's trackd-web.service
    /// drop-in loads it from /var/lib/trackd-setup/owner-code); `nil` when neither is there or it is empty.
    func ownerCode(environment: [String: String]) throws(WebError) -> String? {
        guard let data = try Self.credential("owner-code", file: ownerCodeFile, what: "the owner code file",
                                             environment: environment) else { return nil }
        let code = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return code.isEmpty ? nil : code
    }

    /// The car's Wi-Fi: `--car-wifi-file`, else systemd's credential `car-wifi` (the card image's drop-in loads it
    /// from /var/lib/trackd-setup/car-wifi: the name, then the passphrase); `nil` when neither holds one.
    func carWiFi(environment: [String: String]) throws(WebError) -> WiFiNetwork? {
        try Self.credential("car-wifi", file: carWiFiFile, what: "the car's Wi-Fi file", environment: environment)
            .flatMap { WiFiNetwork(file: $0) }
    }

    /// The bytes of `file` when one was given (an error if it cannot be read), else of systemd's credential `name`
    /// ($CREDENTIALS_DIRECTORY/NAME), if there is one.
    static func credential(_ name: String, file: String?, what: String,
                           environment: [String: String]) throws(WebError) -> [UInt8]? {
        guard let path = file ?? environment["CREDENTIALS_DIRECTORY"].map({ "\($0)/\(name)" }) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            if file != nil { throw .configuration("cannot read \(what) \(path)") }
            return nil
        }
        return Array(data)
    }

    /// trackd.conf's `web:` section (every default when there is no file) and the path looked at, for messages.
    func webSettings(environment: [String: String]) throws(WebError) -> (WebConfiguration, String) {
        do {
            let (file, path) = try ConfigurationFile.load(explicitPath: config, environment: environment)
            return (file.web, path ?? "\(ConfigurationFile.defaultPath(environment: environment)) (not there)")
        } catch {
            throw .configuration("\(error)")
        }
    }

    /// `HOST:PORT` or `[IPv6]:PORT`.
    static func parse(_ text: String) throws -> WebListener.Endpoint {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (0...65535).contains(port) else { throw ValidationError("no port") }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ValidationError("no host") }
        return .address(host: host, port: port)
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
