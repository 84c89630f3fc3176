import Foundation
import TestSupport
import Testing
import TrackCore
@testable import TrackStore

/// The log as the uplink's outbox: what it reads after a watermark, in order, and the watermark it keeps.
@Suite("The log as the uplink's outbox")
struct UplinkOutboxTests {
    @Test func readsEachTripsStartPointsEventsAndEndInOrder() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await log.beginTrip(kind: .business, purpose: "Delivery", customer: nil)
        let start = UTCTime(iso8601: "2026-11-20T08:00:00Z")!
        let points = (0..<10).map { second in
            RecordedPoint(point: TrackPoint(time: start.adding(seconds: Double(second)),
                                            coordinate: Coordinate(latitude: 59.4, longitude: 24.7 + Double(second) * 1e-4),
                                            speed: 5, error: 3, distance: Double(second) * 5.7), segment: 0)
        }
        try await log.appendPoints(Array(points.prefix(5)), to: trip.id)
        try await log.recordIdleAlert(IdleAlert(time: start.adding(seconds: 4.5), stationarySince: start,
                                                position: nil, tripNumber: trip.id), tripID: trip.id)
        try await log.appendPoints(Array(points.suffix(5)), to: trip.id)

        // While the trip runs: its start, its points and the alert where its time puts it; no end yet.
        let running = try await log.uplinkItems(after: .origin, limit: 100).map(\.position)
        let parts = running.map(\.part)
        #expect(parts.first == .started)
        #expect(parts.dropFirst().prefix(5) == [.point(0), .point(1), .point(2), .point(3), .point(4)])
        #expect(parts[6] == .event(1), "\(parts)")
        #expect(parts.last == .point(9))
        #expect(running.count == 12)

        _ = try await log.closeTrip(trip.id, TripSummary(start: start, end: start.adding(seconds: 9), startPosition: nil,
                                                         endPosition: nil, measuredDistance: 51.3, purpose: nil,
                                                         endReason: "stopped"))
        let second = try await recordTrip(in: log, start: "2026-11-20T09:00:00Z", seconds: 3)
        // From a watermark in the middle of the first trip, in pieces of four.
        var cursor = UplinkCursor.beginning(of: trip.id).advanced(past: UplinkPosition(tripID: trip.id, part: .started))
            .advanced(past: UplinkPosition(tripID: trip.id, part: .point(6)))
            .advanced(past: UplinkPosition(tripID: trip.id, part: .event(1)))
        var read: [UplinkPosition] = []
        while true {
            let items = try await log.uplinkItems(after: cursor, limit: 4)
            guard !items.isEmpty else { break }
            for item in items { cursor = cursor.advanced(past: item.position) }
            read += items.map(\.position)
        }
        #expect(read == [
            UplinkPosition(tripID: trip.id, part: .point(7)), UplinkPosition(tripID: trip.id, part: .point(8)),
            UplinkPosition(tripID: trip.id, part: .point(9)), UplinkPosition(tripID: trip.id, part: .ended),
            UplinkPosition(tripID: second.id, part: .started),
            UplinkPosition(tripID: second.id, part: .point(0)), UplinkPosition(tripID: second.id, part: .point(1)),
            UplinkPosition(tripID: second.id, part: .point(2)), UplinkPosition(tripID: second.id, part: .point(3)),
            UplinkPosition(tripID: second.id, part: .ended),
        ])
        #expect(try await log.uplinkBacklog(after: .origin) == 14)
        #expect(try await log.newestUplinkPoint()?.position == UplinkPosition(tripID: second.id, part: .point(3)))
    }

    @Test func aPrivateTripWithoutItsRouteGivesItsStartAndEndWithoutAPosition() async throws {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let trip = try await recordTrip(in: log, kind: .private, purpose: nil, start: "2026-11-20T08:00:00Z",
                                        seconds: 30, route: .withheld)
        let items = try await log.uplinkItems(after: .origin, limit: 100)
        #expect(items.map(\.position.part) == [.started, .ended])
        if case .tripStarted(let started) = items.first {
            #expect(started.startPosition == nil)
        }
        if case .tripEnded(let ended) = items.last {
            #expect(ended.id == trip.id && ended.startPosition == nil && ended.endPosition == nil)
            #expect(ended.distance > 0)
        } else {
            Issue.record("no end: \(items)")
        }
    }

    @Test func keepsTheWatermarkOfEachTransportInTheFile() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("trackd.sqlite")
        let cursor = UplinkCursor.beginning(of: TripID(4)).advanced(past: UplinkPosition(tripID: TripID(4), part: .point(17)))
        do {
            let log = try MileageLog.open(path: path)
            #expect(try await log.uplinkCursor("mqtt") == .origin)
            try await log.saveUplinkCursor(cursor, transport: "mqtt")
        }
        let reopened = try MileageLog.open(path: path)
        #expect(try await reopened.uplinkCursor("mqtt") == cursor)
        #expect(try await reopened.uplinkCursor("osmand") == .origin)
        #expect(try sqlite3(path, "SELECT point_seq FROM uplink_cursor WHERE transport = 'mqtt'")
            .trimmingCharacters(in: .whitespacesAndNewlines) == "17")
    }
}
