import Foundation
import TestSupport
import TrackCore
@testable import TrackStore

/// Fixed times and people for changes made in tests.
enum TestContext {
    static let user = "driver"

    /// A change made at `iso`.
    static func at(_ iso: String) -> ChangeContext {
        ChangeContext(user: user, time: UTCTime(iso8601: iso)!, timeSource: "gps")
    }
}

/// Records a GPS trip the way the daemon does: opened, points along a straight line eastwards at 10 m/s, closed.
@discardableResult
func recordTrip(in log: MileageLog, kind: TripKind = .business, purpose: String? = "Customer visit",
                start: String, seconds: Int = 600, segments: Int = 1,
                origin: Coordinate = Coordinate(latitude: 59.437, longitude: 24.7536),
                route: TripRoute = .recorded, end endPosition: Coordinate? = nil,
                carOdometer: (start: Double?, end: Double?) = (nil, nil),
                erasingPrivateRoutes: Bool = false) async throws -> LogTrip {
    let trip = try await log.beginTrip(kind: kind, purpose: purpose, customer: nil, route: route, carOdometer: carOdometer.start)
    let startTime = UTCTime(iso8601: start)!
    var points: [RecordedPoint] = []
    let metresPerDegree = 111_320 * cos(origin.latitude * .pi / 180)
    for second in 0...seconds {
        let distance = Double(second) * 10
        let point = TrackPoint(time: startTime.adding(seconds: Double(second)),
                               coordinate: Coordinate(latitude: origin.latitude, longitude: origin.longitude + distance / metresPerDegree),
                               speed: 10, error: 3, distance: distance)
        points.append(RecordedPoint(point: point, segment: second * segments / (seconds + 1)))
        if points.count == 60 {
            try await log.appendPoints(points, to: trip.id)
            points.removeAll()
        }
    }
    try await log.appendPoints(points, to: trip.id)
    let end = startTime.adding(seconds: Double(seconds))
    return try await log.closeTrip(trip.id, TripSummary(
        start: startTime, end: end, startPosition: origin, endPosition: endPosition,
        measuredDistance: Double(seconds) * 10, purpose: nil, endReason: "stopped", carOdometer: carOdometer.end),
        erasingPrivateRoutes: erasingPrivateRoutes)
}

