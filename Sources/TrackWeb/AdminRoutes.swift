#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Hummingbird
import Logging
import NIOCore
import TrackCore
import TrackWebClient

/// The administration socket's routes, for `trackctl web`: make a pairing code, list the devices, revoke one. The
/// socket's mode (0660, the control group) decides who may ask; nothing here is reachable from the network.
public struct AdminRoutes: Sendable {
    let registry: DeviceRegistry
    /// The page's addresses as a phone would open them (`http://192.168.4.1:8080`), for the pairing URL.
    let pageAddresses: @Sendable () -> [String]
    /// The car's Wi-Fi, given with each pairing code (the phone joins it first).
    let carWiFi: WiFiNetwork?
    let logger: Logger

    public init(registry: DeviceRegistry, pageAddresses: @escaping @Sendable () -> [String], carWiFi: WiFiNetwork? = nil,
                logger: Logger) {
        self.registry = registry
        self.pageAddresses = pageAddresses
        self.carWiFi = carWiFi
        self.logger = logger
    }

    /// What `POST /pair` takes.
    public struct PairingRequest: Codable, Sendable {
        public var role: WebRole
    }

    public func router() -> Router<WebContext> {
        let router = Router(context: WebContext.self)
        router.post("pair") { request, _ in
            let body = try await request.body.collect(upTo: 4096)
            let role = (try? JSONDecoder().decode(PairingRequest.self, from: Data(body.readableBytesView)))?.role
                ?? .driver
            let code = registry.newCode(role: role, at: .now) { attempts in
                logger.wrongPairingCodes(attempts)
            }
            logger.notice("pairing code made", metadata: ["role": "\(role.rawValue)"])
            let urls = pageAddresses().map { "\($0)/pair?code=\(code)" }
            return WebResponse.json(PairingCode(
                code: code, role: role, expiresInSeconds: Int(DeviceRegistry.codeLifetime.components.seconds),
                urls: urls, carWiFi: carWiFi))
        }
        router.get("devices") { _, _ in
            WebResponse.json(try registry.devices())
        }
        router.post("devices/:id/revoke") { _, context in
            guard let id = context.parameters.get("id", as: Int64.self) else {
                return WebResponse.refusal(.badRequest, "a device is named by its number (trackctl web devices)")
            }
            guard let device = try registry.revoke(id: id, wallTime: Int64(time(nil))) else {
                return WebResponse.refusal(.notFound, "there is no paired device \(id) (trackctl web devices)")
            }
            logger.notice("device revoked", metadata: ["device": "\(device.id)", "device_name": "\(device.name)"])
            return WebResponse.json(device)
        }
        return router
    }
}
