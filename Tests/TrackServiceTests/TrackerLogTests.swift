import Logging
import TestSupport
import Testing
import TrackCore
import TrackInput
import TrackStore
@testable import TrackService

/// What the tracker logs for the events a driver or an operator looks for in the journal: each carries its fixed
/// `message_id` (the journal's MESSAGE_ID) and, for a trip, the trip's number as `trip_id`.
struct TrackerLogTests {
    private let start = UTCTime.iso("2026-11-22T08:00:00Z")

    @Test func tripAndSourceEventsCarryTheirMessageIDAndTheTripNumber() async {
        var configuration = EngineConfiguration()
        configuration.idleAlertAfter = 120
        var drive = DriveSimulator(start: start, seed: 7)
        drive.drive(1000, kmh: 50)
        drive.park(300)
        let (logger, records) = RecordingLogHandler.logger()
        let inbox = TrackerInbox()
        let tracker = TrackerService(
            inbox: inbox, configuration: configuration, autoStart: .business,
            status: LiveStatus(address: "serial:///dev/gps0", now: MonotonicInstant(nanoseconds: 0)), hub: WatchHub(),
            address: "serial:///dev/gps0", logger: logger, clock: { MonotonicInstant(nanoseconds: 0) },
            tick: .seconds(3600))
        inbox.deliver(.state(.connected("/dev/gps0 at 9600 baud")))
        for fix in drive.fixes {
            let instant = MonotonicInstant(nanoseconds: UInt64(fix.time!.seconds(since: start) * 1e9) + 1_000_000_000)
            inbox.deliver(.fix(fix, receivedAt: instant))
        }
        inbox.deliver(.state(.lost("/dev/gps0 unplugged")))
        inbox.finish()
        await tracker.run()

        let identified = records.all.filter { $0["message_id"] != nil }
        #expect(identified.map(\.message.description) == [
            "trip started", "source connected", "idle alert: stationary for 2 min", "source lost", "trip ended at shutdown",
        ])
        let started = records.records("trip started").first
        #expect(started?["message_id"] == LogMessageID.tripStarted.rawValue)
        #expect(started?["trip_id"] == "1")
        #expect(started?["trip"] == "1", "the existing keys stay")
        #expect(started?["kind"] == "business")

        let idle = records.records("idle alert: stationary for 2 min").first
        #expect(idle?.level == .warning, "a warning: PRIORITY=4 in the journal")
        #expect(idle?["message_id"] == LogMessageID.idleAlert.rawValue)
        #expect(idle?["trip_id"] == "1")
        #expect(idle?["stationary_s"] == "120", "the configured time, not a fixed two hours")

        // The inbox ended (trackd stops): the journal says the trip was closed by the shutdown.
        let ended = records.records("trip ended at shutdown").first
        #expect(ended?["message_id"] == LogMessageID.tripEnded.rawValue)
        #expect(ended?["end_reason"] == "shutdown")
        #expect(ended?["trip_id"] == "1")
        #expect(ended?["distance_m"] != nil)

        let connected = records.records("source connected").first
        #expect(connected?["message_id"] == LogMessageID.sourceConnected.rawValue)
        #expect(connected?["source"] == "serial:///dev/gps0")
        let lost = records.records("source lost").first
        #expect(lost?["message_id"] == LogMessageID.sourceLost.rawValue)
        #expect(lost?["reason"] == "/dev/gps0 unplugged")
        #expect(lost?.level == .warning)
    }

    @Test func aTripResumedAfterAPowerCutCarriesItsMessageIDAndItsOwnNumber() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        // A trip the power cut left open: a minute of points, the last at 08:00:59.
        let origin = Coordinate(latitude: 59.437, longitude: 24.7536)
        let cut = try await log.beginTrip(kind: .business, purpose: "Delivery", customer: nil)
        let points = (0..<60).map { second in
            TrackPoint(time: start.adding(seconds: Double(second)),
                       coordinate: Geodesic.point(east: Double(second) * 10, north: 0, from: origin),
                       speed: 10, error: 3, distance: Double(second) * 10)
        }
        try await log.appendPoints(points.map { RecordedPoint(point: $0, segment: 0) }, to: cut.id)
        // Power is back two minutes later; the vehicle stands where it stopped.
        let restart = start.adding(seconds: 179)
        var drive = DriveSimulator(start: restart.adding(seconds: -1),
                                   origin: Geodesic.point(east: 590, north: 0, from: origin), seed: 52)
        drive.park(5)

        let (logger, records) = RecordingLogHandler.logger()
        let tracker = TrackerHarness(log: log, origin: restart, autoStart: .business, logger: logger)
        try await tracker.feedAndWait(drive.fixes)
        await tracker.finish()

        let resumed = try #require(records.records("trip resumed after a power cut").first)
        #expect(resumed["message_id"] == LogMessageID.tripResumed.rawValue)
        #expect(resumed["trip_id"] == "\(cut.id)")
        #expect(resumed["trip"] == "\(cut.id)")
        #expect(records.records("trip started").isEmpty, "the cut trip carries on; no new one starts")
    }
}
