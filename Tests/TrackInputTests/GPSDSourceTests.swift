#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TestSupport
import Synchronization
import Testing
import TrackCore
import TrackInput

/// `GPSDSource` against a real gpsd: gpsfake starts `/usr/sbin/gpsd` on a loopback port and feeds it
/// `Fixtures/gpsd-drive.nmea` in a loop.
///
/// The fixture is a 30 s straight drive on 2024-05-14 from 10:00:00 to 10:00:29 UTC: at second `s` the car is at
/// 52.5 + 0.0001·s °N, 13.4 + 0.0001·s °E, 35 + 0.1·s m above sea level, doing 25.322 kn on a track of 31.3°,
/// with 8 satellites used at HDOP 0.9, VDOP 1.3, PDOP 1.6. Seconds 20–22 are a tunnel without a fix; from second 25
/// on the receiver has SBAS corrections (DGPS).
///
/// The suite is serialized: each test runs its own gpsd, and the build machines are small.
@Suite(.serialized)
struct GPSDSourceTests {
    @Test(.timeLimit(.minutes(TestPatience.minutes(2))))
    func deliversFixesFromARealGpsd() async throws {
        let gpsd = try await GPSFake.delivering(log: try Drive.fixtureURL())
        defer { gpsd.stop() }
        let port = gpsd.port

        try await withSource(port: port) { log in
            let events = try await log.wait(for: "a fix for every second of the drive", gpsd: gpsd) { events in
                Set(events.fixes.compactMap(\.time)).isSuperset(of: Drive.times)
            }
            #expect(events.states.first == .connecting)
            #expect(events.states.dropFirst().first.map(Drive.isConnected(to: port)) == true,
                    "expected .connected(\"gpsd 127.0.0.1:\(port), libgps API …\") next, got \(events.states)")
            #expect(!events.states.contains { if case .lost = $0 { true } else { false } })

            let fixes = events.fixes
            for fix in fixes { Drive.expectOnTheDrive(fix) }
            let tunnel = fixes.filter { $0.time.flatMap(Drive.second(of:)).map(Drive.tunnel.contains) == true }
            #expect(!tunnel.isEmpty, "no report from the tunnel")
            // Every second of the drive outside the tunnel came as a full 3D fix at least once. (gpsd may report
            // mode 3 before it has seen the GGA with the altitude; `expectOnTheDrive` checks any altitude given.)
            for second in Drive.seconds where !Drive.tunnel.contains(second) {
                #expect(fixes.contains { fix in
                    fix.time == Drive.time(at: second) && fix.mode == .threeD && fix.hasPosition && fix.altitudeMSL != nil
                }, "no 3D fix with an altitude at second \(second)")
            }
            #expect(fixes.contains { $0.eph != nil && $0.ephSource == .gpsd })
            #expect(fixes.contains(where: Drive.carriesSkyReport), "no fix carried the SKY report's DOPs and satellites")
        }
    }

    @Test(.timeLimit(.minutes(TestPatience.minutes(2))))
    func reconnectsWhenGpsdComesBack() async throws {
        let fixture = try Drive.fixtureURL()
        let first = try await GPSFake.delivering(log: fixture)
        defer { first.stop() }
        let port = first.port

        try await withSource(port: port) { log in
            _ = try await log.wait(for: "3 fixes from the first gpsd", gpsd: first) { events in
                events.fixes.filter(\.hasPosition).count >= 3
            }
            first.stop()
            _ = try await log.wait(for: "the loss of gpsd to be reported") { events in
                events.states.contains { if case .lost = $0 { true } else { false } }
            }
            // Let several reconnection attempts fail, so that a loss reported per attempt would show.
            try await Task.sleep(for: .seconds(3))

            let second = try GPSFake(port: port, log: fixture)
            defer { second.stop() }
            let events = try await log.wait(for: "3 fixes from the second gpsd", gpsd: second) { events in
                guard let reconnected = events.indexOfState(matching: Drive.isConnected(to: port), occurrence: 2)
                else { return false }
                return events[reconnected...].fixes.filter(\.hasPosition).count >= 3
            }

            let states = events.states
            #expect(states.count == 4, "expected connecting, connected, lost, connected; got \(states)")
            guard states.count == 4 else { return }
            #expect(states[0] == .connecting)
            #expect(Drive.isConnected(to: port)(states[1]))
            #expect(states[2] == .lost("lost gpsd at 127.0.0.1:\(port): gpsd closed the connection"))
            #expect(Drive.isConnected(to: port)(states[3]))
            let resumed = try #require(events.indexOfState(matching: Drive.isConnected(to: port), occurrence: 2))
            for fix in events[resumed...].fixes { Drive.expectOnTheDrive(fix) }
        }
    }

    @Test(.timeLimit(.minutes(TestPatience.minutes(2))))
    func reportsWaitingWhenGpsdIsAbsentAtStart() async throws {
        let port = try LoopbackPort.free()
        let fixture = try Drive.fixtureURL()

        try await withSource(port: port) { log in
            _ = try await log.wait(for: "the source to report that it is waiting") { events in
                events.states.count >= 2
            }
            // Let several connection attempts fail, so that a report per attempt would show.
            try await Task.sleep(for: .seconds(3))
            let waiting = log.snapshot
            #expect(waiting.states == [.connecting, .lost("waiting for gpsd at 127.0.0.1:\(port): connection refused")])
            #expect(waiting.fixes.isEmpty)

            let gpsd = try GPSFake(port: port, log: fixture)
            defer { gpsd.stop() }
            let events = try await log.wait(for: "a fix once gpsd is there", gpsd: gpsd) { events in
                events.fixes.contains(where: \.hasPosition)
            }
            #expect(events.states.count == 3, "expected connecting, lost, connected; got \(events.states)")
            #expect(events.states.last.map(Drive.isConnected(to: port)) == true)
        }
    }
}

// MARK: - The drive in the fixture

/// What `Fixtures/gpsd-drive.nmea` says, for checking what comes out of gpsd.
private enum Drive {
    static let seconds = 0..<30
    static let tunnel = 20...22
    static let differential = 25...29
    static let start = UTCTime(iso8601: "2024-05-14T10:00:00Z")!
    static let times = Set(seconds.map(time(at:)))
    /// 25.322 kn in m/s (gpsd converts with 0.51444444 m/s per knot and prints 3 decimals).
    static let speed = 25.322 * 0.514444444

    static func fixtureURL() throws -> URL {
        try #require(Bundle.module.url(forResource: "gpsd-drive", withExtension: "nmea", subdirectory: "Fixtures"),
                     "Fixtures/gpsd-drive.nmea is missing from the test bundle")
    }

    static func time(at second: Int) -> UTCTime { start.adding(seconds: Double(second)) }

    /// The second of the drive `time` falls on, if it is one.
    static func second(of time: UTCTime) -> Int? {
        let offset = time.seconds(since: start)
        let second = Int(offset.rounded())
        return seconds.contains(second) && abs(offset - Double(second)) < 1e-9 ? second : nil
    }

    /// Whether a state is `.connected` to the test's gpsd, with the libgps API version.
    static func isConnected(to port: Int) -> (SourceState) -> Bool {
        { state in
            guard case .connected(let detail) = state else { return false }
            return detail.hasPrefix("gpsd 127.0.0.1:\(port), libgps API ")
        }
    }

    /// Where on the drive the car was at the fix's position, as a second of the drive; `nil` if never.
    static func second(atPositionOf fix: Fix) -> Int? {
        guard let latitude = fix.latitude, let longitude = fix.longitude else { return nil }
        let second = Int(((latitude - 52.5) / 0.0001).rounded())
        guard seconds.contains(second), abs(latitude - (52.5 + 0.0001 * Double(second))) < 1e-6,
              abs(longitude - (13.4 + 0.0001 * Double(second))) < 1e-6 else { return nil }
        return second
    }

    /// Checks any fix gpsd reported for the drive: its time is a second of the drive; in the tunnel it has no
    /// position; elsewhere a position is the drive's at that second, with the receiver's speed, track and quality.
    static func expectOnTheDrive(_ fix: Fix, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let time = fix.time else {
            // Until gpsd has seen a date (in RMC) it reports positions from GGA without a time.
            if fix.hasPosition {
                #expect(second(atPositionOf: fix) != nil, "an undated position off the drive: \(fix)",
                        sourceLocation: sourceLocation)
            }
            return
        }
        guard let second = second(of: time) else {
            Issue.record("a fix at \(time), outside the drive", sourceLocation: sourceLocation)
            return
        }
        if tunnel.contains(second) {
            #expect(fix.mode <= .noFix, "mode \(fix.mode) in the tunnel at \(time)", sourceLocation: sourceLocation)
            #expect(fix.latitude == nil && fix.longitude == nil, "a position in the tunnel at \(time)",
                    sourceLocation: sourceLocation)
            #expect(fix.quality == .unknown, sourceLocation: sourceLocation)
            #expect(fix.altitudeMSL == nil, sourceLocation: sourceLocation)
        } else if fix.hasPosition {
            expectPosition(of: fix, at: second, sourceLocation: sourceLocation)
        }
    }

    /// Whether a fix carries what gpsd's SKY reports say while the car has a fix: 8 of 8 satellites used,
    /// HDOP 0.9, VDOP 1.3, PDOP 1.6.
    static func carriesSkyReport(_ fix: Fix) -> Bool {
        func near(_ value: Double?, _ expected: Double) -> Bool { value.map { abs($0 - expected) < 1e-6 } ?? false }
        guard fix.hasPosition, fix.satellitesUsed == 8, fix.satellitesInView == 8 else { return false }
        return near(fix.hdop, 0.9) && near(fix.vdop, 1.3) && near(fix.pdop, 1.6)
    }

    /// Checks a fix with a position against the drive at `second`.
    static func expectPosition(of fix: Fix, at second: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(fix.mode >= .twoD, sourceLocation: sourceLocation)
        // gpsd 3.22 leaves "status" out for a plain GPS fix; the source must still call it GPS, not unknown.
        #expect(fix.quality == (differential.contains(second) ? .dgps : .gps), "quality at second \(second)",
                sourceLocation: sourceLocation)
        if let latitude = fix.latitude, let longitude = fix.longitude {
            #expect(abs(latitude - (52.5 + 0.0001 * Double(second))) < 1e-6, "latitude at second \(second)",
                    sourceLocation: sourceLocation)
            #expect(abs(longitude - (13.4 + 0.0001 * Double(second))) < 1e-6, "longitude at second \(second)",
                    sourceLocation: sourceLocation)
        }
        #expect(fix.speed.map { abs($0 - speed) < 1e-3 } == true, "speed \(String(describing: fix.speed))",
                sourceLocation: sourceLocation)
        #expect(fix.track.map { abs($0 - 31.3) < 1e-6 } == true, "track \(String(describing: fix.track))",
                sourceLocation: sourceLocation)
        if let altitude = fix.altitudeMSL {
            #expect(fix.mode == .threeD, "an altitude in a \(fix.mode) fix", sourceLocation: sourceLocation)
            #expect(abs(altitude - (35.0 + 0.1 * Double(second))) < 1e-6, "altitude at second \(second)",
                    sourceLocation: sourceLocation)
        }
    }
}

// MARK: - Running the source

/// Runs a `GPSDSource` for 127.0.0.1:`port` while `body` looks at what it delivers, then cancels it and waits for
/// `run` to return.
private func withSource(port: Int, _ body: (EventLog) async throws -> Void) async throws {
    let log = EventLog()
    let source = GPSDSource(host: "127.0.0.1", port: port)
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await source.run { event in log.append(event) } }
        try await body(log)
        group.cancelAll()
        try await group.waitForAll()
    }
}

/// Everything a source delivered, in order.
private final class EventLog: Sendable {
    private let events = Mutex<[SourceEvent]>([])

    func append(_ event: SourceEvent) { events.withLock { $0.append(event) } }

    var snapshot: [SourceEvent] { events.withLock { $0 } }

    /// Waits up to `seconds` for the events to satisfy `condition`, then returns them; fails the test after that.
    /// The default is generous: gpsfake on a loaded two-core machine once took over 20 s to deliver a first fix.
    func wait(
        for what: String, upTo seconds: Double = 45, gpsd: GPSFake? = nil,
        until condition: ([SourceEvent]) -> Bool
    ) async throws -> [SourceEvent] {
        let deadline = ContinuousClock.now.advanced(by: .seconds(TestPatience.seconds(seconds)))
        while ContinuousClock.now < deadline {
            let events = snapshot
            if condition(events) { return events }
            try await Task.sleep(for: .milliseconds(50))
        }
        let events = snapshot
        if condition(events) { return events }
        let output = gpsd.map { "\ngpsfake's output:\n\($0.output)" } ?? ""
        throw TestFailure("gave up after \(seconds) s waiting for \(what); states: \(events.states), "
                          + "\(events.fixes.count) fixes\(output)")
    }
}

extension Collection<SourceEvent> {
    fileprivate var fixes: [Fix] {
        compactMap { if case .fix(let fix, _) = $0 { fix } else { nil } }
    }

    fileprivate var states: [SourceState] {
        compactMap { if case .state(let state) = $0 { state } else { nil } }
    }

    /// Where the `occurrence`-th state matching `predicate` is (1 = the first).
    fileprivate func indexOfState(matching predicate: (SourceState) -> Bool, occurrence: Int) -> Index? {
        var seen = 0
        for index in indices {
            guard case .state(let state) = self[index], predicate(state) else { continue }
            seen += 1
            if seen == occurrence { return index }
        }
        return nil
    }
}
