#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import FoundationEssentials

/// How trackctl fails: one sentence on standard error and an exit status; with `--json`, also a JSON object on
/// standard output, `{"error": {"code": -32011, "message": "…", "exit_status": 1}}` (`code` when trackd gave one).
enum Failure {
    static func exit(_ message: String, status: Int32, code: Int? = nil, json: Bool) -> ExitCode {
        printError("trackctl: \(message)")
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let body = JSONBody(error: .init(code: code, exitStatus: Int(status), message: message))
            if let data = try? encoder.encode(body) {
                print(String(decoding: data, as: UTF8.self))
            }
        }
        return ExitCode(status)
    }

    /// Why a file operation of Foundation failed, as the system words it (`No such file or directory`).
    static func reason(_ error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.userInfo["NSUnderlyingError"] as? POSIXError {
            return String(cString: strerror(underlying.code.rawValue))
        }
        return "\(error)"
    }

    /// `{"error": {…}}`: what `--json` prints on a failure.
    struct JSONBody: Encodable {
        struct Details: Encodable {
            /// trackd's error code, when trackd gave one; left out when not.
            var code: Int?
            var exitStatus: Int
            var message: String

            enum CodingKeys: String, CodingKey {
                case code, message
                case exitStatus = "exit_status"
            }
        }

        var error: Details
    }
}
