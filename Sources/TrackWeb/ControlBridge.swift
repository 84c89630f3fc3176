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

    /// Calls `method` with `params` on behalf of `device`, whose name trackd sees in the connection's hello.
    public func call<Params: Codable & Sendable, Result: Codable & Sendable>(
        _ method: ControlMethod, params: Params, result: Result.Type, for device: PairedDevice
    ) async throws -> Result {
        try await ControlClient.withConnection(socketPath: socketPath, client: Self.clientName(device)) { connection in
            try await connection.call(methodNamed: method.rawValue, params: params, result: result)
        }
    }

    /// How trackd-web introduces itself: the program and the device it speaks for.
    static func clientName(_ device: PairedDevice) -> String {
        "trackd-web for device \(device.id) (\(device.name))"
    }

    /// Follows trackd's live notifications for `device` (`watch`), handing each line to `line` until trackd closes
    /// the connection or `line` throws (the browser went away).
    public func watch(for device: PairedDevice, _ line: (ByteBuffer) async throws -> Void) async throws {
        try await ControlClient.withConnection(socketPath: socketPath, client: Self.clientName(device)) { connection in
            _ = try await connection.call(.watch, params: NoParams(), result: JSONValue.self)
            while let next = try await connection.receive() {
                try await line(next)
            }
        }
    }
}
