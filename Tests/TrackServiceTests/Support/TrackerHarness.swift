import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Logging
import Synchronization
import TrackCore
import TrackInput
import TrackStore
@testable import TrackService

// Test targets cannot share code: TemporaryFolder, sqlite3 and the drive simulator are copied from
// Tests/TrackStoreTests/Support and Tests/TrackCoreTests/Support.

/// A folder of its own for one test, removed afterwards.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("trackd-tracker-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A path inside the folder.
    func file(_ name: String) -> String { "\(path)/\(name)" }
}

/// Runs `sqlite3` on a database file: a connection of another process, as `sqlite3` on the card or trackctl would be.
@discardableResult
func sqlite3(_ path: String, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [path, sql]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// A condition that did not come true in time.
struct TimedOut: Error, CustomStringConvertible {
    let description: String
}

/// A request answered with something else than the test expects.
struct UnexpectedAnswer: Error, CustomStringConvertible {
    let description: String
}

/// Waits until `condition` holds, checking every few milliseconds; throws if it does not within `timeout` (a bound
/// for a stuck test, not a measure of speed).
func eventually(_ what: String, timeout: Duration = .seconds(60),
                _ condition: () async throws -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while try await !condition() {
        guard clock.now < deadline else { throw TimedOut(description: "timed out waiting until \(what)") }
        try await Task.sleep(for: .milliseconds(10))
    }
}

extension UTCTime {
    /// A time from ISO 8601 text, for tests that know their input is valid.
    static func iso(_ text: String) -> UTCTime {
        guard let time = UTCTime(iso8601: text) else { preconditionFailure("bad test time \(text)") }
        return time
    }

    /// Milliseconds since the epoch, as the log stores track-point times.
    var milliseconds: Int64 { nanosecondsSinceEpoch / 1_000_000 }
}

/// A monotonic clock the test moves by hand (the only fake these tests use).
final class TestClock: Sendable {
    private let nanoseconds: Mutex<UInt64>

    init(_ start: MonotonicInstant) {
        nanoseconds = Mutex(start.nanoseconds)
    }

    func now() -> MonotonicInstant {
        MonotonicInstant(nanoseconds: nanoseconds.withLock { $0 })
    }

    func set(_ instant: MonotonicInstant) {
        nanoseconds.withLock { $0 = instant.nanoseconds }
    }
}

/// A `TrackerService` recording into a real mileage log, run in a task of its own. The test feeds fixes, sends
/// requests as the control socket would, and waits for conditions; fixes arrive at monotonic instants made from their
/// GPS times (as replay does), and the service's clock is a `TestClock` the test moves.
final class TrackerHarness: Sendable {
    let status: LiveStatus
    let clock: TestClock
    /// The GPS time that maps to `base` on the monotonic clock.
    let origin: UTCTime
    private static let base: UInt64 = 1_000_000 * 1_000_000_000
    private let events: AsyncStream<SourceEvent>.Continuation
    private let commands: AsyncStream<EngineCommand>.Continuation
    private let fed = Atomic<Int>(0)
    private let task: Task<Void, Never>

    init(log: MileageLog, origin: UTCTime, autoStart: TripKind? = nil, tick: Duration = .seconds(3600),
         commitInterval: Double = 30, recovery: PowerCutRecovery = PowerCutRecovery(),
         exports: MonthlyExports? = nil) {
        self.origin = origin
        let clock = TestClock(MonotonicInstant(nanoseconds: TrackerHarness.base))
        let status = LiveStatus(address: "file:///drive.nmea", now: clock.now())
        let (eventStream, events) = AsyncStream.makeStream(of: SourceEvent.self)
        let (commandStream, commands) = AsyncStream.makeStream(of: EngineCommand.self)
        let tracker = TrackerService(
            events: eventStream, commands: commandStream, autoStart: autoStart, status: status, hub: WatchHub(),
            address: "file:///drive.nmea", logger: Logger(label: "trackd.test"), clock: { clock.now() }, tick: tick,
            recording: .init(log: log, commitInterval: commitInterval, recovery: recovery, exports: exports))
        self.clock = clock
        self.status = status
        self.events = events
        self.commands = commands
        task = Task { await tracker.run() }
    }

    /// The monotonic instant of a GPS time.
    func instant(_ time: UTCTime) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: TrackerHarness.base).adding(seconds: time.seconds(since: origin))
    }

    /// Sets the service's clock to the instant of a GPS time, plus `seconds`.
    func setClock(to time: UTCTime, plus seconds: Double = 0) {
        clock.set(instant(time).adding(seconds: seconds))
    }

    /// Hands fixes to the tracker, each stamped with the instant of its GPS time.
    func feed(_ fixes: some Sequence<Fix>) {
        for fix in fixes {
            events.yield(.fix(fix, receivedAt: instant(fix.time!)))
            fed.add(1, ordering: .relaxed)
        }
    }

    /// Hands fixes to the tracker and waits until it has taken the last of them (an input after that is carried
    /// out after all of them).
    func feedAndWait(_ fixes: some Sequence<Fix>) async throws {
        feed(fixes)
        let count = fed.load(ordering: .relaxed)
        try await eventually("the tracker has taken \(count) fixes") {
            status.snapshot(now: clock.now()).epochs >= count
        }
    }

    /// A request as the control socket passes it on, and its answer.
    func request(_ request: LogRequest, user: String = "driver") async -> Result<LogResponse, RPCError> {
        await Reply<LogResponse>.wait { reply in
            commands.yield(.request(request, user: user, reply: reply))
        }
    }

    /// The trip a `start` or `stop` request answered with.
    func tripRequest(_ request: LogRequest) async throws -> LogTrip {
        switch await self.request(request) {
        case .success(.trip(let trip)): return trip
        case .success(let other): throw UnexpectedAnswer(description: "answered \(other), not a trip")
        case .failure(let error): throw error
        }
    }

    /// Ends the source (as at the end of a recording) and waits for the tracker to finish.
    func finish() async {
        events.finish()
        commands.finish()
        await task.value
    }
}

/// Makes deterministic fixes: a vehicle that stands and drives, seen by a receiver with Gauss-Markov position error,
/// white noise and Doppler speed noise (from Tests/TrackCoreTests/Support/DriveSimulator.swift).
struct DriveSimulator {
    struct Receiver {
        var sigma = 2.0
        var tau = 60.0
        var white = 0.2
        var speedNoise = 0.1
        var restSpeedNoise = 0.15
        var eph = 6.0
    }

    var receiver = Receiver()
    private(set) var fixes: [Fix] = []
    /// Distance actually driven, metres.
    private(set) var trueDistance = 0.0
    private var east = 0.0
    private var north = 0.0
    private var heading = 90.0
    private var speed = 0.0
    private var time: UTCTime
    private var errorEast = 0.0
    private var errorNorth = 0.0
    private var random: SplitMix64
    let origin: Coordinate

    init(start: UTCTime, origin: Coordinate = Coordinate(latitude: 59.437, longitude: 24.7536), seed: UInt64 = 1) {
        time = start
        self.origin = origin
        random = SplitMix64(seed: seed)
    }

    /// The time of the last fix made.
    var now: UTCTime { time }

    /// Stands still for `seconds` (one fix a second).
    mutating func park(_ seconds: Int) {
        speed = 0
        for _ in 0..<seconds { advance(acceleration: 0, turnRate: 0) }
    }

    /// Drives `metres` at `kmh`, accelerating at 1.5 m/s² and braking at 2 m/s² to `endKmh` at the end.
    mutating func drive(_ metres: Double, kmh: Double, endKmh: Double = 0, turnDegrees: Double = 0) {
        let target = kmh / 3.6
        let exit = endKmh / 3.6
        var covered = 0.0
        let turnRate = turnDegrees / max(metres, 1)
        while covered < metres || speed > exit + 1e-9 {
            let remaining = metres - covered
            let braking = (speed * speed - exit * exit) / (2 * 2.0)
            var acceleration = 0.0
            if speed > exit && (remaining <= braking || covered >= metres) {
                acceleration = -min(2.0, speed - exit)
            } else if speed < target {
                acceleration = min(1.5, target - speed)
            }
            let before = trueDistance
            advance(acceleration: acceleration, turnRate: turnRate)
            covered += trueDistance - before
        }
    }

    private mutating func advance(acceleration: Double, turnRate: Double) {
        let newSpeed = max(0, speed + acceleration)
        let step = (speed + newSpeed) / 2
        heading += turnRate * step
        east += step * sin(heading * .pi / 180)
        north += step * cos(heading * .pi / 180)
        trueDistance += step
        speed = newSpeed
        time = time.adding(seconds: 1)
        let decay = exp(-1 / receiver.tau)
        let drive = (1 - decay * decay).squareRoot() * receiver.sigma
        errorEast = decay * errorEast + drive * gaussian()
        errorNorth = decay * errorNorth + drive * gaussian()
        let position = Geodesic.point(east: east + errorEast + receiver.white * gaussian(),
                                      north: north + errorNorth + receiver.white * gaussian(), from: origin)
        let reportedSpeed = speed > 0 ? max(0, speed + receiver.speedNoise * gaussian())
                                      : abs(receiver.restSpeedNoise * gaussian())
        fixes.append(Fix(
            time: time, mode: .threeD, quality: .gps, latitude: position.latitude, longitude: position.longitude,
            altitudeMSL: 35, speed: reportedSpeed,
            track: speed > 0 ? heading.truncatingRemainder(dividingBy: 360) : uniform() * 360,
            eph: receiver.eph, ephSource: .receiver, hdop: 0.9, satellitesUsed: 10))
    }

    private mutating func uniform() -> Double {
        Double(random.next() >> 11) / Double(1 << 53)
    }

    private mutating func gaussian() -> Double {
        let u1 = max(uniform(), 1e-12)
        let u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}

/// A small deterministic random generator.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The elements of an XML document, counted by name; throws when the document is not well-formed.
enum XMLElements {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// Every element's name, in document order (the root first).
    static func names(_ text: String) throws -> [String] {
        let collector = Collector()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = collector
        guard parser.parse() else {
            throw Malformed(description: "line \(parser.lineNumber): \(parser.parserError.map { "\($0)" } ?? "malformed")")
        }
        return collector.names
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var names: [String] = []

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            names.append(elementName)
        }
    }
}
