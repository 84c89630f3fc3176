import Foundation
import Glibc
import TestSupport

/// Starts the trackd a harness measures and waits until it is up.
enum DaemonLauncher {
    /// Starts `executable` and polls `isUp` every 2 ms for at most 30 s; a trackd that exits first, or is not up
    /// by then, is stopped and reported with its output (`round` names the harness's round in the error).
    static func start(_ executable: String, arguments: [String], environment: [String: String] = [:],
                      outputPath: String, round: Int = 0,
                      until isUp: () -> Bool) throws(HarnessError) -> TestSubprocess {
        let process: TestSubprocess
        do {
            process = try TestSubprocess(executable: executable, arguments: arguments, environment: environment,
                                         outputPath: outputPath)
        } catch {
            throw .daemonDidNotStart(round: round, output: "\(error)")
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while !isUp() {
            guard process.isRunning, ContinuousClock.now < deadline else {
                process.stop()
                throw .daemonDidNotStart(round: round, output: process.output)
            }
            usleep(2_000)
        }
        return process
    }

    /// Starts `executable` and waits until its control socket `socket` exists.
    static func start(_ executable: String, arguments: [String], environment: [String: String] = [:],
                      outputPath: String, round: Int = 0, socket: String) throws(HarnessError) -> TestSubprocess {
        try start(executable, arguments: arguments, environment: environment, outputPath: outputPath, round: round) {
            FileManager.default.fileExists(atPath: socket)
        }
    }
}
