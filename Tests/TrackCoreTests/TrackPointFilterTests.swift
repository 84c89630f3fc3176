import Testing
@testable import TrackCore

@Suite("Which track points the log stores")
struct TrackPointFilterTests {
    let origin = Coordinate(latitude: 59.437, longitude: 24.7536)
    let start = UTCTime(iso8601: "2026-11-20T08:00:00Z")!

    private func point(_ second: Int, east: Double) -> TrackPoint {
        TrackPoint(time: start.adding(seconds: Double(second)), coordinate: Geodesic.point(east: east, north: 0, from: origin),
                   speed: nil, error: 4, distance: east)
    }

    @Test func keepsEveryPointWhileMoving() {
        var filter = TrackPointFilter()
        let kept = (0..<100).filter { filter.keep(point($0, east: Double($0) * 0.3), segment: 0, moving: true) }
        #expect(kept.count == 100)
    }

    @Test func aParkedVehicleCostsNoWritesUntilItDrifts() {
        var filter = TrackPointFilter(standingSpacing: 25)
        let first = filter.keep(point(0, east: 0), segment: 0, moving: false)
        #expect(first, "the first point is kept")
        let jitter = (1..<3600).filter { filter.keep(point($0, east: Double($0 % 7)), segment: 0, moving: false) }
        #expect(jitter.isEmpty, "an hour of jitter within a few metres writes nothing")
        let drift = filter.keep(point(3600, east: 40), segment: 0, moving: false)
        #expect(drift, "a drift past the spacing is kept")
    }

    @Test func theFirstPointAfterAnOutageIsKept() {
        var filter = TrackPointFilter()
        let decisions = [
            filter.keep(point(0, east: 0), segment: 0, moving: false),
            filter.keep(point(1, east: 1), segment: 0, moving: false),
            filter.keep(point(2, east: 1), segment: 1, moving: false),
        ]
        #expect(decisions == [true, false, true])
        filter.reset()
        let afresh = filter.keep(point(3, east: 1), segment: 1, moving: false)
        #expect(afresh, "a new trip starts afresh")
    }
}
