import Foundation
import TestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif
import Logging
import Synchronization
import TrackCore
import TrackInput
import TrackStore
@testable import TrackService

/// A condition that did not come true in time.
struct TimedOut: Error, CustomStringConvertible {
    let description: String
}

/// A request answered with something else than the test expects.
struct UnexpectedAnswer: Error, CustomStringConvertible {
    let description: String
}

/// Waits until `condition` holds, checking every few milliseconds; throws if it does not within `timeout` (a bound
/// for a stuck test, not a measure of speed; stretched by `TestPatience`).
func eventually(_ what: String, timeout: Duration = .seconds(60),
                _ condition: () async throws -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: TestPatience.duration(timeout))
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
    private let inbox: TrackerInbox
    private let fed = Atomic<Int>(0)
    private let task: Task<Void, Never>

    init(log: MileageLog, origin: UTCTime, autoStart: TripKind? = nil, tick: Duration = .seconds(3600),
         commitInterval: Double = 30, recovery: PowerCutRecovery = PowerCutRecovery(),
         exports: MonthlyExports? = nil, privacy: PrivacyPolicy = PrivacyPolicy(), pointFile: TrackPointFile? = nil,
         settleBytes: Int? = nil, poweredAt: UTCTime? = nil, carWaitAtBoot: Double? = nil,
         logger: Logger = Logger(label: "trackd.test")) {
        self.origin = origin
        let clock = TestClock(MonotonicInstant(nanoseconds: TrackerHarness.base))
        let status = LiveStatus(address: "file:///drive.nmea", now: clock.now())
        let inbox = TrackerInbox()
        let tracker = TrackerService(
            inbox: inbox, autoStart: autoStart, carWaitAtBoot: carWaitAtBoot,
            poweredAt: poweredAt.map { MonotonicInstant(nanoseconds: TrackerHarness.base).adding(seconds: $0.seconds(since: origin)) },
            status: status, hub: WatchHub(),
            address: "file:///drive.nmea", logger: logger, clock: { clock.now() }, tick: tick,
            recording: .init(log: log, commitInterval: commitInterval, recovery: recovery, exports: exports,
                             privacy: privacy, pointFile: pointFile,
                             settleBytes: settleBytes))
        self.clock = clock
        self.status = status
        self.inbox = inbox
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
            inbox.deliver(.fix(fix, receivedAt: instant(fix.time!)))
            fed.add(1, ordering: .relaxed)
        }
    }

    /// Reports a change of the source's state (a receiver unplugged, gpsd gone).
    func source(_ state: SourceState) {
        inbox.deliver(.state(state))
    }

    /// What the OBD-II service reports: the adapter configured, the link's states and what the car said.
    func obd(_ input: OBDInput) {
        inbox.deliver(input)
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
            inbox.send(.request(request, user: user, reply: reply))
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
        inbox.finish()
        await task.value
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
