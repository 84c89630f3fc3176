import ControlSocket
import NIOCore
import TrackCore
import TrackWebClient

/// trackd-web's way into the log: trackd's control socket, exactly as `trackctl` uses it. One connection per request
/// (a local socket: connecting costs well under a millisecond), so no state is held between requests.
public struct ControlBridge: Sendable {
    /// trackd's control socket.
    public let socketPath: String

    public init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// Calls `method` with `params` on behalf of `device`, which the connection's hello names: trackd records each
    /// change as made by `trackd-web for device N (NAME)`.
    public func call<Params: Codable & Sendable, Result: Codable & Sendable>(
        _ method: ControlMethod, params: Params, result: Result.Type, for device: PairedDevice
    ) async throws -> Result {
        try await ControlClient.withConnection(socketPath: socketPath, client: Self.clientName,
                                               onBehalfOf: Self.onBehalfOf(device)) { connection in
            try await connection.call(methodNamed: method.rawValue, params: params, result: result)
        }
    }

    /// How trackd-web introduces itself.
    static let clientName = "trackd-web \(TrackVersion.string)"

    /// The device it speaks for, as the log records it (a device's name is at most 80 characters, one line since
    /// pairing made it so; a name stored before is made one line here).
    static func onBehalfOf(_ device: PairedDevice) -> String {
        "device \(device.id) (\(device.name.oneLine))"
    }

    /// Follows trackd's live notifications for `device` (`watch`), handing each line to `line` until trackd closes
    /// the connection or `line` throws (the browser went away).
    public func watch(for device: PairedDevice, _ line: (ByteBuffer) async throws -> Void) async throws {
        try await ControlClient.withConnection(socketPath: socketPath, client: Self.clientName,
                                               onBehalfOf: Self.onBehalfOf(device)) { connection in
            _ = try await connection.call(.watch, params: NoParams(), result: JSONValue.self)
            while let next = try await connection.receive() {
                try await line(next)
            }
        }
    }
}
