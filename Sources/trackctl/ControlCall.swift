import ControlSocket
import FoundationEssentials
import TrackCore
import TrackctlTexts

/// Connecting and printing, shared by the commands that talk to trackd.
enum ControlCall {
    /// Connects, runs `body`, and turns connection failures into a clean exit with the reason. For words (not
    /// `--json`, the same in every language) without a language from the terminal, the log's profile's is heard
    /// first (`Speech`), on the same connection.
    static func run<Value: Sendable>(
        _ options: ConnectionOptions, _ body: (inout ControlConnection) async throws -> Value
    ) async throws -> Value {
        do {
            return try await ControlClient.withConnection(socketPath: options.socketPath,
                                                          client: "trackctl \(TrackVersion.string)") { connection in
                if !options.json, Speech.listensToProfile {
                    LogAccess.heard(try? await connection.call(.profile, params: NoParams(), result: LogProfile.self))
                }
                return try await body(&connection)
            }
        } catch let error as ControlSocketError {
            if case .remote(let remote) = error {
                throw Failure.exit(remote.text, status: ExitStatus.refused, code: remote.code, json: options.json)
            }
            throw Failure.exit(describe(error), status: ExitStatus.unreachable, json: options.json)
        }
    }

    /// What went wrong on the socket, in trackctl's language.
    static func describe(_ error: ControlSocketError) -> String {
        switch error {
        case .lineTooLong(let limit):
            t("trackd's answer is longer than \(limit) bytes")
        case .daemonNotRunning(let path, let reason):
            t("trackd is not running at \(path) (\(Self.reason(reason))); start it, give its socket with --socket, or read a log file with --db PATH")
        case .permissionDenied(let path):
            t("permission denied on \(path): add yourself to the 'trackd' group (sudo usermod -aG trackd $USER) and log in again")
        case .connectionClosed:
            t("trackd closed the connection")
        case .badResponse(let detail):
            t("unexpected answer from trackd: \(detail)")
        case .remote(let error):
            error.text
        }
    }

    /// The socket library's reason, in trackctl's language where it is one of its own.
    static func reason(_ reason: String) -> String {
        switch reason {
        case "no socket file": t("no socket file")
        case "connection refused": t("connection refused")
        default: reason
        }
    }

    /// Compact JSON text of a value.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
