#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TrackCore

/// ELM327-emulator (PyPI, installed by scripts/elm327-emulator) as a child process: an ELM327 OBD-II adapter on a
/// pseudo-terminal or a loopback TCP port, in batch mode, its command line (Python included) fed through a FIFO.
///
/// `car: .trackd` merges Tests/ELM327/trackd_car.py (the emulator's `merge`, then `scenario trackd`): a car with
/// an odometer whose speed, engine speed, odometer, voltage and engine state follow `drive(...)`. `.standard` is
/// the emulator's default car as it comes (no odometer: PID A6 answers NO DATA).
public final class ELM327Emulator: @unchecked Sendable {
    /// How the adapter is reached.
    public enum Link: Sendable {
        case pseudoTerminal
        case tcp
    }

    /// Which car sits behind the adapter.
    public enum Car: Sendable {
        /// The emulator's default car, untouched.
        case standard
        /// Tests/ELM327/trackd_car.py's car, driven by the test.
        case trackd
    }

    /// The state of trackd's car.
    public struct CarState: Sendable, Equatable {
        public var speed: Double = 0
        public var rpm: Double = 0
        public var odometer: Double = 12345.6
        public var volts: Double = 12.4
        public var engine = true
        /// What the engine's PIDs answer instead while set: a bus error (`CAN ERROR`), noise, half an answer.
        public var fault: String?
        /// The adapter keeps its headers on, whatever `AT H0` said (a clone that ignores it).
        public var headers = false
        /// Control units answering `01 A0`: with 2 the transmission answers first, without the odometer.
        public var units = 1
        /// The VIN comes in five numbered lines, as J1850 and K-line cars send it.
        public var vinLines = false
        /// `01 00` searches for the protocol this long before it answers (`SEARCHING...`, a slow-init protocol).
        public var searchSeconds: Double = 0

        public init() {}
    }

    /// The version the project's scripts install (scripts/elm327-emulator).
    public static let version = "4.0.0"

    /// The adapter's address as trackd.conf's `obd.adapter` takes it.
    public let address: String
    /// The pseudo-terminal's slave, for the serial link.
    public let devicePath: String?
    /// The TCP port, for the TCP link.
    public let port: Int?
    /// The emulator's output (batch mode's answers to its commands, its log).
    public let outputPath: String
    public private(set) var car = CarState()
    private let process: TestSubprocess
    private let commands: FileHandle
    private let folder: String

    /// The emulator's `elm`: `TRACKD_ELM327_EMULATOR`, else where scripts/elm327-emulator installs it.
    public static var executable: String {
        if let path = ProcessInfo.processInfo.environment["TRACKD_ELM327_EMULATOR"], !path.isEmpty { return path }
        let cache = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (ProcessInfo.processInfo.environment["HOME"] ?? "/root") + "/.cache"
        return "\(cache)/trackd/elm327-emulator-\(version)/bin/elm"
    }

    /// Starts the emulator in `folder` (its log and FIFO live there) and waits until it serves; over TCP on
    /// `tcpPort`, or a free port.
    public init(link: Link, car: Car = .standard, in folder: String, tcpPort: Int? = nil) async throws {
        let executable = Self.executable
        self.folder = folder
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw SubprocessError("ELM327-emulator is not installed at \(executable): run scripts/elm327-emulator")
        }
        let fifo = "\(folder)/elm327-commands"
        unlink(fifo)
        guard mkfifo(fifo, 0o600) == 0 else { throw SubprocessError("mkfifo \(fifo): \(String(cString: strerror(errno)))") }
        // Read and write, so that opening it neither blocks nor sends the emulator an end of input early.
        let descriptor = open(fifo, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw SubprocessError("open \(fifo): \(String(cString: strerror(errno)))") }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        commands = handle
        if car == .trackd {
            // trackd's car is asked for before the emulator starts, so that it reads the lines as its first commands:
            // a trackd that reconnects to this address the moment the emulator listens must not meet its default
            // car, whose odometer (PID A6) answers NO DATA (seen once in CI, the adapter back on its address).
            for line in ["merge trackd_car", "scenario trackd", Self.driveCommand(CarState())] {
                try handle.write(contentsOf: Data((line + "\n").utf8))
            }
        }
        let batch = "\(folder)/elm327-batch.txt"
        batchPath = batch
        // An emulator started before in the same folder left its batch output: read, it would name that emulator's
        // pseudo-terminal and say "started" before this one has.
        unlink(batch)
        outputPath = "\(folder)/elm327-emulator.log"
        var arguments = ["-b", batch]
        switch link {
        case .pseudoTerminal:
            port = nil
        case .tcp:
            let free = try tcpPort ?? LoopbackPort.free()
            port = free
            arguments += ["-n", String(free)]
        }
        if car == .trackd, !FileManager.default.fileExists(atPath: "\(folder)/trackd_car.py") {
            try FileManager.default.copyItem(atPath: "\(Self.scenarios)/trackd_car.py", toPath: "\(folder)/trackd_car.py")
        }
        // In `folder`: the emulator writes elm.log into its working folder and merges scenarios found there.
        let process = try TestSubprocess(
            executable: "/bin/sh", arguments: ["-c", "cd \"$0\" && exec \"$@\"", folder, executable] + arguments,
            environment: ["PYTHONPATH": folder, "PYTHONUNBUFFERED": "1"], inputPath: fifo, outputPath: outputPath)
        self.process = process
        let started = await poll(upTo: 30) { Self.read(batch).contains("Begin batch commands.") || !process.isRunning }
        guard started, process.isRunning else {
            throw SubprocessError("ELM327-emulator did not start: \(Self.read(batch)) \(process.output)")
        }
        switch link {
        case .pseudoTerminal:
            let device = Self.read(batch).split(separator: "\n").first.map(String.init) ?? ""
            guard device.hasPrefix("/dev/") else { throw SubprocessError("ELM327-emulator named no device: \(Self.read(batch))") }
            devicePath = device
            address = "serial://\(device)?baud=38400"
        case .tcp:
            devicePath = nil
            address = "tcp://127.0.0.1:\(port ?? 0)"
        }
        if car == .trackd {
            guard await poll(upTo: 30, { Self.read(batch).contains("switched to 'trackd'") }) else {
                throw SubprocessError("ELM327-emulator did not take trackd's car: \(Self.read(batch))")
            }
        }
    }

    /// Starts the emulator over TCP with trackd's car standing with its engine running (800 rpm, 14.1 V) and its
    /// odometer at `odometer` km; `car` is that state, for the test to drive on from.
    public static func runningCar(odometer: Double, in folder: String) async throws -> ELM327Emulator {
        let emulator = try await ELM327Emulator(link: .tcp, car: .trackd, in: folder)
        var car = CarState()
        car.odometer = odometer
        car.rpm = 800
        car.volts = 14.1
        try emulator.drive(car)
        return emulator
    }

    /// The emulator's batch output: its answers to commands.
    public let batchPath: String

    /// The folder of the project's scenarios for the emulator.
    static var scenarios: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path + "/ELM327"
    }

    deinit {
        stop()
    }

    /// Sends one line to the emulator's command line (`delay 2`, `pause`, a Python statement, ...).
    public func command(_ line: String) throws {
        try commands.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Sets what trackd's car reports from now on.
    public func drive(_ state: CarState) throws {
        car = state
        try command(Self.driveCommand(state))
    }

    /// The emulator's command that sets what trackd's car reports.
    static func driveCommand(_ state: CarState) -> String {
        func number(_ value: Double) -> String { String(format: "%.3f", value) }
        return "emulator.trackd_car = dict(speed=\(number(state.speed)), rpm=\(number(state.rpm)), "
            + "odometer=\(number(state.odometer)), volts=\(number(state.volts)), engine=\(state.engine ? "True" : "False"), "
            + "fault=\(state.fault.map { "'\($0)'" } ?? "None"), headers=\(state.headers ? "True" : "False"), "
            + "units=\(state.units), vin_lines=\(state.vinLines ? "True" : "False"), "
            + "search_seconds=\(number(state.searchSeconds)))"
    }

    /// Makes trackd's car follow `drive` (its speed, and an odometer at `odometer` km when it starts that counts the
    /// distance driven times `factor`), the drive's start being `start` on the monotonic clock: the car plays it
    /// by itself (Tests/ELM327/trackd_car.py), with no command per second.
    public func follow(_ drive: DriveSimulator, odometer: Double, factor: Double = 1, from start: MonotonicTime) throws {
        try follow(drive.truth[...], origin: (drive.start, 0), odometer: odometer, factor: factor, from: start)
    }

    /// Makes trackd's car follow `steps` of a drive, standing at `origin` (a time and the distance driven by then)
    /// at `start` on the monotonic clock with its odometer at `odometer` km, and counting the distance driven since
    /// times `factor`; `pace` times faster than the drive's own (as the receiver's recording is played).
    public func follow(_ steps: ArraySlice<(time: UTCTime, speed: Double, distance: Double)>,
                       origin: (time: UTCTime, distance: Double), odometer: Double, factor: Double = 1,
                       pace: Double = 1, from start: MonotonicTime) throws {
        let profile = "\(folder)/elm327-drive.txt"
        let lines = steps.map { step in
            String(format: "%.3f %.4f %.6f", step.time.seconds(since: origin.time), step.speed * 3.6,
                   odometer + (step.distance - origin.distance) * factor / 1000)
        }
        try Data((["0 0 \(String(format: "%.6f", odometer))"] + lines).joined(separator: "\n").utf8)
            .write(to: URL(fileURLWithPath: profile))
        try command("emulator.trackd_car['drive'] = dict(path='\(profile)', start=\(String(format: "%.6f", start.seconds)), "
                    + "pace=\(pace))")
    }

    /// Ends the emulator (its pseudo-terminal closes, its port stops listening).
    public func stop() {
        process.stop(grace: 5)
    }

    /// Whether it still runs.
    public var isRunning: Bool { process.isRunning }

    /// What it wrote: its log, then its answers to the command line.
    public var output: String { process.output + "\n" + Self.read(batchPath) }

    private static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }
}
