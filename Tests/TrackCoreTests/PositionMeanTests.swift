import Testing
@testable import TrackCore

struct PositionMeanTests {
    @Test func isTheMeanOfTheOffsetsOnTheLocalPlane() {
        let origin = Coordinate(latitude: 59.437, longitude: 24.7536)
        var mean = PositionMean(Geodesic.point(east: 10, north: 0, from: origin))
        mean.include(Geodesic.point(east: -10, north: 4, from: origin))
        mean.include(Geodesic.point(east: 3, north: -7, from: origin))
        let offset = Geodesic.offset(of: mean.center, from: origin)
        #expect(abs(offset.east - 1) < 0.001)
        #expect(abs(offset.north - (-1)) < 0.001)
        #expect(mean.count == 3)
    }

    @Test func ofOnePositionIsThatPosition() {
        let here = Coordinate(latitude: -33.8688, longitude: 151.2093)
        #expect(Geodesic.distance(from: PositionMean(here).center, to: here) < 1e-6)
    }
}
