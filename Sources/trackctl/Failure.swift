import ArgumentParser
import Foundation

/// How trackctl fails: one sentence on standard error and an exit status; with `--json`, also a JSON object on
/// standard output, `{"error": {"code": -32011, "message": "…", "exit_status": 1}}` (`code` when trackd gave one).
enum Failure {
    static func exit(_ message: String, status: Int32, code: Int? = nil, json: Bool) -> ExitCode {
        printError("trackctl: \(message)")
        if json {
            var error: [String: Any] = ["message": message, "exit_status": Int(status)]
            if let code { error["code"] = code }
            if let data = try? JSONSerialization.data(withJSONObject: ["error": error], options: [.sortedKeys, .withoutEscapingSlashes]) {
                print(String(decoding: data, as: UTF8.self))
            }
        }
        return ExitCode(status)
    }
}
