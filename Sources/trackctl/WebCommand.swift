#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import FoundationEssentials
import TerminalQR
import TrackCore
import TrackWebClient
import TrackctlTexts

/// `trackctl web`: pairing phones with the driver's page, listing them, ending their sessions (docs/web.md).
struct WebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web", abstract: "The driver's page: pair a phone, list the paired devices, revoke one.",
        discussion: """
            trackd-web serves the page to paired devices only. 'trackctl web pair' prints a one-time code and the \
            address to open on the phone (valid for ten minutes); the phone that opens it stays paired until revoked.

            Examples:
              trackctl web pair                 # the driver's phone: may start, stop and edit trips
              trackctl web pair --read-only     # an accountant: sees trips and reports, changes nothing
              trackctl web devices
              trackctl web revoke 3
            """,
        subcommands: [Pair.self, Devices.self, Revoke.self], defaultSubcommand: Devices.self)

    @Option(help: ArgumentHelp("trackd-web's administration socket (default: $TRACKD_WEB_SOCKET, else "
                               + "/run/trackd-web/admin.sock).", valueName: "path"))
    var adminSocket: String?

    @ParentCommand var trackctl: TrackControl

    /// Whether to print JSON (trackctl's `--json`).
    var json: Bool { trackctl.connection.json }

    /// The administration socket to use.
    var socketPath: String {
        adminSocket ?? ProcessInfo.processInfo.environment["TRACKD_WEB_SOCKET"] ?? "/run/trackd-web/admin.sock"
    }

    /// `trackctl web pair`.
    struct Pair: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pair", abstract: "Print a one-time code and the address that pairs a phone with the page.")

        @ParentCommand var web: WebCommand

        @Flag(help: "Pair for reading only (an accountant or employer): trips and reports, no changes.")
        var readOnly = false

        @Flag(inversion: .prefixedNo,
              help: "Print the first address as a QR code for the phone's camera (default: when the output is a terminal).")
        var qr: Bool?

        func run() async throws {
            let role = readOnly ? "viewer" : "driver"
            let response = try await web.exchange("POST", "/pair", body: Array("{\"role\":\"\(role)\"}".utf8))
            if web.json { return print(response.text) }
            let code = try WebCommand.decode(PairingCode.self, from: response, json: web.json)
            let grouped = "\(code.code.prefix(4)) \(code.code.dropFirst(4))"
            let minutes = code.expiresInSeconds / 60
            print(code.role == .viewer ? t("Pairing code: \(grouped)   (read only, valid for \(minutes) minutes, once)")
                                       : t("Pairing code: \(grouped)   (driver, valid for \(minutes) minutes, once)"))
            let drawn = qr ?? (isatty(STDOUT_FILENO) == 1)
            if let wifi = code.carWiFi {
                // The car's Wi-Fi first: the phone joins it before it can open the page.
                print(t("The car's Wi-Fi: \(wifi.name)   password: \(wifi.passphrase)"))
                if drawn {
                    print(t("join it with the phone's camera:"))
                    do {
                        for line in try QRCode(wifi.joinText).terminalLines() { Swift.print("  " + line) }
                    } catch {
                        print(t("(no QR code: \(error))"))
                    }
                }
            }
            if code.urls.isEmpty {
                print(t("Open http://BOARD:PORT/pair on the phone (the board's address in the car's network) and enter the code."))
            } else {
                print(t("Open on the phone:"))
                for url in code.urls { print("  \(url)") }
                if let first = code.urls.first, drawn {
                    // The code in the address too: the camera opens the form filled in.
                    print(t("or point its camera at this code (\(first)):"))
                    do {
                        // The code's own colours are escapes of trackd's making, not text from the log: printed as
                        // they are (TerminalOutput makes everything else safe).
                        for line in try QRCode(first).terminalLines() { Swift.print("  " + line) }
                    } catch {
                        print(t("(no QR code: \(error))"))
                    }
                }
            }
        }
    }

    /// `trackctl web devices`.
    struct Devices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "devices", abstract: "List the paired devices, their role and last use.")

        @ParentCommand var web: WebCommand

        func run() async throws {
            let response = try await web.exchange("GET", "/devices")
            if web.json { return print(response.text) }
            let devices = try WebCommand.decode([PairedDevice].self, from: response, json: web.json)
            guard !devices.isEmpty else {
                return print(t("no paired devices; pair a phone with: trackctl web pair"))
            }
            var rows = [[t("ID"), t("Name"), t("Role"), t("Paired"), t("Last used"), t("State")]]
            for device in devices {
                rows.append([
                    "\(device.id)", device.name, device.role == .viewer ? t("read only") : t("driver"),
                    Self.time(device.pairedAt), device.lastUsedAt.map(Self.time) ?? "",
                    device.revokedAt.map { t("revoked \(Self.time($0))") } ?? t("active"),
                ])
            }
            print(LogText.align(rows, rightAligned: [0]).joined(separator: "\n"))
        }

        /// Seconds since 1970 as `2026-11-28 17:28 UTC`.
        static func time(_ seconds: Int64) -> String {
            let text = UTCTime(secondsSinceEpoch: Double(seconds)).iso8601(fractionDigits: 0)
            return text.prefix(10) + " " + text.dropFirst(11).prefix(5) + " UTC"
        }
    }

    /// `trackctl web revoke`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke", abstract: "End a paired device's session at once (its next request is refused).")

        @ParentCommand var web: WebCommand

        @Argument(help: ArgumentHelp("The device's number (trackctl web devices).", valueName: "id"))
        var id: Int64

        func run() async throws {
            let response = try await web.exchange("POST", "/devices/\(id)/revoke")
            if web.json { return print(response.text) }
            let device = try WebCommand.decode(PairedDevice.self, from: response, json: web.json)
            print(t("revoked device \(device.id) (\(device.name)): its next request is refused"))
        }
    }

    /// One request to trackd-web's administration socket; a refusal or an unreachable trackd-web ends trackctl.
    func exchange(_ method: String, _ path: String, body: [UInt8] = []) async throws -> WebExchange.Response {
        let response: WebExchange.Response
        do {
            response = try await WebExchange.send(method, path, to: .unixSocket(socketPath),
                                                  headers: [("Content-Type", "application/json")], body: body)
        } catch {
            throw Failure.exit(
                t("cannot reach trackd-web at \(socketPath) (\(error)); is it enabled? sudo systemctl enable --now trackd-web.socket trackd-web-admin.socket"),
                status: ExitStatus.unreachable, json: json)
        }
        guard (200..<300).contains(response.status) else {
            let message = (try? JSONDecoder().decode(Refusal.self, from: Data(response.body)))?.error.message
                ?? t("trackd-web answered \(response.status)")
            throw Failure.exit(message, status: ExitStatus.refused, json: json)
        }
        return response
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from response: WebExchange.Response,
                                         json: Bool) throws -> Value {
        do {
            return try JSONDecoder().decode(type, from: Data(response.body))
        } catch {
            throw Failure.exit(t("trackd-web's answer could not be read: \(error)"), status: ExitStatus.refused, json: json)
        }
    }

    /// trackd-web's refusal.
    struct Refusal: Decodable {
        struct Detail: Decodable {
            var message: String
        }
        var error: Detail
    }
}
