import Testing
@testable import TrackCore

struct GeodesicTests {
    @Test func matchesVincentysOwnExampleOnTheEllipsoid() {
        // Flinders Peak to Buninyong (Vincenty 1975; Geoscience Australia): 54 972.271 m on the GRS80/WGS-84 ellipsoid.
        let flinders = Coordinate(latitude: -(37 + 57 / 60.0 + 3.72030 / 3600), longitude: 144 + 25 / 60.0 + 29.52440 / 3600)
        let buninyong = Coordinate(latitude: -(37 + 39 / 60.0 + 10.15610 / 3600), longitude: 143 + 55 / 60.0 + 35.38390 / 3600)
        #expect(abs(Geodesic.distance(from: flinders, to: buninyong) - 54_972.271) < 0.01)
    }

    @Test func isLongerThanASphereWhereTheEllipsoidIs() {
        // A degree of latitude at 59° N is 111.4 km on the ellipsoid; a 6371 km sphere says 111.2.
        let a = Coordinate(latitude: 59, longitude: 24)
        let b = Coordinate(latitude: 60, longitude: 24)
        let distance = Geodesic.distance(from: a, to: b)
        #expect(abs(distance - 111_412) < 50)
        #expect(distance > Geodesic.greatCircle(from: a, to: b))
    }

    @Test func agreesWithTheLocalPlaneOverShortDistances() {
        let origin = Coordinate(latitude: 59.437, longitude: 24.7536)
        let point = Geodesic.point(east: 300, north: -400, from: origin)
        let offset = Geodesic.offset(of: point, from: origin)
        #expect(abs(offset.east - 300) < 1e-6)
        #expect(abs(offset.north + 400) < 1e-6)
        #expect(abs(Geodesic.distance(from: origin, to: point) - 500) < 0.05)
    }

    @Test func givesZeroForTheSamePointAndSurvivesAntipodes() {
        let point = Coordinate(latitude: 10, longitude: 20)
        #expect(Geodesic.distance(from: point, to: point) == 0)
        let distance = Geodesic.distance(from: Coordinate(latitude: 0, longitude: 0), to: Coordinate(latitude: 0.5, longitude: 179.7))
        #expect(distance > 19_900_000 && distance < 20_020_000)
    }
}
