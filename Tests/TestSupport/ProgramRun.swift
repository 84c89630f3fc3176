import Foundation
import Synchronization

/// What a finished program printed, and how it ended.
public struct CommandResult: Sendable {
    public let status: Int32
    public let output: String
    public let error: String
}

/// Runs `executable` with `arguments` to its end, blocking, with this process's environment less `variables` and
/// with `adding` set. Both pipes are read to their end before waiting, so that a large output cannot fill one and
/// stall the child.
public func runProgram(_ executable: String, _ arguments: [String], removing variables: [String] = [],
                       adding added: [String: String] = [:]) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    for variable in variables { environment.removeValue(forKey: variable) }
    environment.merge(added) { $1 }
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let errorData = Mutex(Data())
    let reader = Thread { errorData.withLock { $0 = error.fileHandleForReading.readDataToEndOfFile() } }
    reader.start()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    _ = waitUntil(upTo: 10) { reader.isFinished }
    return CommandResult(status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self),
                         error: errorData.withLock { String(decoding: $0, as: UTF8.self) })
}
