import Foundation
import Synchronization
import TestSupport

/// The built `trackd` and `trackctl`, run as a driver runs them.
enum Products {
    /// The folder the test runner was built into, where the executables are too.
    static let directory: String = {
        var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path]
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent().path) }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: "\($0)/trackd") } ?? candidates[0]
    }()

    static var trackd: String { "\(directory)/trackd" }
    static var trackctl: String { "\(directory)/trackctl" }
    static var trackdStick: String { "\(directory)/trackd-stick" }

    /// The project's root (for demo/ and the test fixtures of other targets).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
}

/// A running trackd with its own state folder and socket.
final class Trackd: @unchecked Sendable {
    let state: String
    let process: TestSubprocess
    var socket: String { "\(state)/control.sock" }
    var database: String { "\(state)/trackd.sqlite" }

    private init(state: String, process: TestSubprocess) {
        self.state = state
        self.process = process
    }

    /// Starts trackd on `source` (an address such as `file:///…?speed=20`), writing `configuration` (YAML) first,
    /// and waits for its socket.
    static func start(state: String, source: String, autoStart: String? = nil, configuration: String = "",
                      run: Int = 0, extraArguments: [String] = [], environment: [String: String] = [:]) async throws -> Trackd {
        try? FileManager.default.removeItem(atPath: "\(state)/control.sock")
        let config = "\(state)/trackd.yaml"
        try Data(configuration.utf8).write(to: URL(fileURLWithPath: config))
        var arguments = ["--source", source, "--state-dir", state, "--config", config, "--log-level", "info"]
        if let autoStart { arguments += ["--auto-start", autoStart] }
        arguments += extraArguments
        let process = try TestSubprocess(executable: Products.trackd, arguments: arguments, environment: environment,
                                         outputPath: "\(state)/trackd-\(run).log")
        let daemon = Trackd(state: state, process: process)
        let started = await poll(upTo: 30) {
            FileManager.default.fileExists(atPath: daemon.socket) || !process.isRunning
        }
        guard started, process.isRunning else { throw SubprocessError("trackd did not start: \(process.output)") }
        return daemon
    }

    /// Cuts the power: SIGKILL, no chance to close anything.
    func kill() async {
        process.send(SIGKILL)
        _ = await poll(upTo: 10) { !self.process.isRunning }
    }

    /// An orderly stop (SIGTERM), as systemd does at shutdown.
    func stop() async {
        let process = process
        _ = try? await offload { process.stop() }
    }

    /// Sends `signal` to trackd alone (not to the programs it starts).
    func send(_ signal: Int32) {
        process.send(signal)
    }

    /// Waits up to `seconds` for trackd to exit: its exit status (128 + the signal that killed it), `nil` while it
    /// still runs.
    func exitStatus(waitingUpTo seconds: Double = 60) async -> Int32? {
        _ = await poll(upTo: seconds) { !self.process.isRunning }
        return process.isRunning ? nil : process.exitStatus
    }

    /// Waits until trackd has taken a fix of GPS time `time` or later (`2026-11-22T08:04:00`: a recording's point,
    /// whatever the pace it is played at); whether it did within `seconds`.
    func reached(_ time: String, upTo seconds: Double = 240) async -> Bool {
        await poll(upTo: seconds) {
            guard let fix = await self.status()?["last_fix"] as? [String: Any], let taken = fix["time"] as? String
            else { return false }
            return taken >= time
        }
    }

    /// `trackctl --json status`, as a dictionary; `nil` when trackd does not answer.
    func status() async -> [String: Any]? {
        guard let result = try? await trackctl(["--socket", socket, "--json", "status"]), result.status == 0 else { return nil }
        return (try? json(result.output)) as? [String: Any]
    }
}

/// Runs trackctl with `arguments` and waits for it (on a thread of its own), without `$TRACKD_SOCKET`.
@discardableResult
func trackctl(_ arguments: [String]) async throws -> CommandResult {
    try await run(Products.trackctl, arguments, removing: ["TRACKD_SOCKET"])
}

/// Runs a program to its end and waits for it (on a thread of its own), with variables taken out of the
/// environment or added to it.
func run(_ executable: String, _ arguments: [String], removing variables: [String] = [],
         adding added: [String: String] = [:]) async throws -> CommandResult {
    try await offload { try runProgram(executable, arguments, removing: variables, adding: added) }
}

/// `sqlite3` on a database file, off the concurrency pool.
func query(_ path: String, _ sql: String) async throws -> String {
    try await offload { try sqlite3(path, sql) }
}

/// JSON text as a dictionary or array.
func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
}

/// A recorded drive cut to the epochs after a GPS time of day, as a receiver that kept running would send them.
enum DriveLog {
    /// The bundled 16-minute drive (22 November 2026 from 08:00:00 UTC).
    static var demo: String { "\(Products.root)/demo/drive.nmea" }

    /// The time of day (UTC) of an RMC sentence, seconds; `nil` for any other line.
    static func secondOfDay(rmc line: String) -> Double? {
        guard line.hasPrefix("$GNRMC") || line.hasPrefix("$GPRMC") else { return nil }
        let time = line.split(separator: ",", omittingEmptySubsequences: false)[1]
        guard time.count >= 6, let h = Double(time.prefix(2)), let m = Double(time.dropFirst(2).prefix(2)),
              let s = Double(time.dropFirst(4)) else { return nil }
        return h * 3600 + m * 60 + s
    }

    /// The lines of `path` from the first RMC later than `secondOfDay` (UTC), written to `output`.
    static func cut(_ path: String, after secondOfDay: Double, to output: String) throws {
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\r\n")
        guard let start = lines.firstIndex(where: { line in DriveLog.secondOfDay(rmc: line).map { $0 > secondOfDay } ?? false }) else { throw SubprocessError("\(path) has no epoch after second \(secondOfDay)") }
        try Data(lines[start...].joined(separator: "\r\n").utf8).write(to: URL(fileURLWithPath: output))
    }

    /// `seconds` of `path`'s drive from the first RMC later than `secondOfDay` (from its start when `nil`), then the
    /// car parked there for half an hour, written to `output`: a recording that keeps a trip open wherever it is
    /// interrupted, and leaves the rest of the drive for the next part of a test, however late the test gets to it.
    static func piece(of path: String, after secondOfDay: Double? = nil, seconds: Double, to output: String) throws {
        if let secondOfDay { try cut(path, after: secondOfDay, to: output) } else {
            try FileManager.default.copyItem(atPath: path, toPath: output)
        }
        let lines = try String(contentsOfFile: output, encoding: .utf8).components(separatedBy: "\r\n")
        let second = DriveLog.secondOfDay(rmc:)
        guard let first = lines.lazy.compactMap(second).first else { throw SubprocessError("\(path) has no RMC") }
        let end = lines.firstIndex { line in second(line).map { $0 > first + seconds } ?? false } ?? lines.endIndex
        try Data((lines[..<end].joined(separator: "\r\n") + "\r\n").utf8).write(to: URL(fileURLWithPath: output))
        try appendParking(to: output, seconds: 1800)
    }
}

extension DriveLog {
    /// Appends to `path` its last epoch repeated once a second for `seconds` more, as the receiver of a car parked
    /// where the drive ended sends it: the same position and sentences, with the times and checksums renewed.
    static func appendParking(to path: String, seconds: Int) throws {
        let content = try String(contentsOfFile: path, encoding: .utf8)
        let lines = content.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard let start = lines.lastIndex(where: { $0.dropFirst(3).hasPrefix("RMC") }) else {
            throw SubprocessError("\(path) has no RMC sentence")
        }
        let epoch = Array(lines[start...])
        let fields = epoch[0].split(separator: ",", omittingEmptySubsequences: false)
        let time = fields[1]
        guard let h = Int(time.prefix(2)), let m = Int(time.dropFirst(2).prefix(2)), let s = Double(time.dropFirst(4)) else {
            throw SubprocessError("\(path) ends with an RMC without a time: \(epoch[0])")
        }
        let last = h * 3600 + m * 60 + Int(s)
        guard last + seconds < 86_400 else { throw SubprocessError("the parking would run past midnight") }
        var text = ""
        for offset in 1...seconds {
            let second = last + offset
            let stamp = String(format: "%02d%02d%02d.00", second / 3600, second / 60 % 60, second % 60)
            for line in epoch {
                var parts = line.split(separator: "*")[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                if ["RMC", "GGA", "GST", "GLL"].contains(where: { parts[0].hasSuffix($0) }) {
                    let index = parts[0].hasSuffix("GLL") ? 5 : 1
                    parts[index] = stamp
                }
                let body = parts.joined(separator: ",").dropFirst()
                let checksum = body.utf8.reduce(UInt8(0), ^)
                text += "$\(body)*\(String(format: "%02X", checksum))\r\n"
            }
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(((content.hasSuffix("\n") ? "" : "\r\n") + text).utf8))
    }
}
