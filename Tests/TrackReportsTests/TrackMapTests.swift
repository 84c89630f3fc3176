import Foundation
import Testing
import TrackCore
@testable import TrackReports

struct TrackMapTests {
    let origin = ReportFixture.origin

    /// A straight line of `count` points from `origin`, `step` metres apart towards `east`/`north` (unit vector).
    func line(count: Int, step: Double, east: Double, north: Double, from start: Coordinate? = nil) -> [Coordinate] {
        (0..<count).map { Geodesic.point(east: Double($0) * step * east, north: Double($0) * step * north,
                                         from: start ?? origin) }
    }

    /// Every projected point.
    func points(_ map: TrackMap) -> [(x: Double, y: Double)] { map.segments.flatMap { $0 } }

    @Test func aMapWithoutPointsIsNotDrawn() {
        #expect(TrackMap(segments: []) == nil)
        #expect(TrackMap(segments: [[], []]) == nil)
        #expect(TrackMap(segments: [[Coordinate(latitude: .nan, longitude: 24)]]) == nil)
    }

    @Test func theTrackFitsTheBoxInsideItsMargins() throws {
        for entry in ReportFixture.trips() where !entry.segments.isEmpty {
            let map = try #require(TrackMap(segments: entry.segments.map { $0.map(\.coordinate) }))
            for point in points(map) {
                #expect(point.x >= TrackMap.margin - 1e-9 && point.x <= TrackMap.width - TrackMap.margin + 1e-9)
                #expect(point.y >= TrackMap.margin - 1e-9
                    && point.y <= TrackMap.height - TrackMap.margin - TrackMap.scaleBarSpace + 1e-9)
            }
        }
    }

    @Test func eastAndNorthKeepTheirProportionsAndTheScaleMatchesGeodesicDistance() throws {
        // An L: 3 km east, then 2 km north.
        let east = line(count: 31, step: 100, east: 1, north: 0)
        let north = line(count: 21, step: 100, east: 0, north: 1, from: east.last!)
        let map = try #require(TrackMap(segments: [east, north]))
        func length(_ segment: [(x: Double, y: Double)]) -> Double {
            hypot(segment.last!.x - segment.first!.x, segment.last!.y - segment.first!.y)
        }
        let eastMetres = Geodesic.distance(from: east.first!, to: east.last!)
        let northMetres = Geodesic.distance(from: north.first!, to: north.last!)
        #expect(abs(length(map.segments[0]) * map.metresPerPixel / eastMetres - 1) < 0.01)
        #expect(abs(length(map.segments[1]) * map.metresPerPixel / northMetres - 1) < 0.01)
        // North is up.
        #expect(map.segments[1].last!.y < map.segments[1].first!.y)
    }

    @Test func theScaleBarShowsARoundDistanceAtTheMapsScale() throws {
        for metres in [300.0, 4_000, 25_000, 180_000] {
            let map = try #require(TrackMap(segments: [line(count: 50, step: metres / 49, east: 1, north: 0)]))
            let bar = map.scaleBar
            var mantissa = bar.metres
            while mantissa >= 10 { mantissa /= 10 }
            #expect([1.0, 2.0, 5.0].contains(mantissa), "\(bar.metres) m")
            #expect(abs(bar.pixels * map.metresPerPixel - bar.metres) < 1e-6 * bar.metres)
            #expect(bar.pixels <= (TrackMap.width - 2 * TrackMap.margin) / 3 + 1e-9)
            #expect(bar.pixels > (TrackMap.width - 2 * TrackMap.margin) / 3 / 2.5)
        }
        #expect(TrackMap.distanceText(500) == "500 m")
        #expect(TrackMap.distanceText(20_000) == "20 km")
    }

    @Test func aDenseTrackIsThinnedButKeepsEverySegmentsEnds() throws {
        // 6000 points a metre apart in three segments: far more than a map needs.
        let segments = (0..<3).map { part in
            line(count: 2_000, step: 1, east: 1, north: 0,
                 from: Geodesic.point(east: Double(part) * 2_100, north: Double(part) * 50, from: origin))
        }
        let map = try #require(TrackMap(segments: segments))
        #expect(points(map).count <= TrackMap.maximumPoints)
        #expect(map.segments.count == 3)
        let full = try #require(TrackMap(segments: segments.map { [$0.first!, $0.last!] }))
        for (thinned, ends) in zip(map.segments, full.segments) {
            #expect(thinned.count >= 2)
            #expect(abs(thinned.first!.x - ends.first!.x) < 1e-9 && abs(thinned.first!.y - ends.first!.y) < 1e-9)
            #expect(abs(thinned.last!.x - ends.last!.x) < 1e-9 && abs(thinned.last!.y - ends.last!.y) < 1e-9)
            // Kept points (bar the last) are at least a pixel apart.
            for (a, b) in zip(thinned.dropLast(), thinned.dropLast().dropFirst()) {
                #expect(hypot(b.x - a.x, b.y - a.y) >= 1)
            }
        }
    }

    @Test func theSVGIsCompactWithOnePolylinePerSegmentAndMarkers() throws {
        let entry = try #require(ReportFixture.trips().first { $0.segments.contains { $0.count == 1 } })
        let map = try #require(TrackMap(segments: entry.segments.map { $0.map(\.coordinate) }))
        let svg = map.svg(title: "Track <1> & more")
        let root = try XMLTree.parse(svg)
        #expect(root.name == "svg")
        #expect(root.child("title")?.text == "Track <1> & more")
        let polylines = root.descendants("polyline")
        #expect(polylines.count == entry.segments.count)
        for polyline in polylines {
            let pairs = try #require(polyline.attributes["points"]).split(separator: " ")
            #expect(pairs.count >= 2, "a one-point segment repeats its point")
            for pair in pairs {
                for number in pair.split(separator: ",") {
                    #expect(number.wholeMatch(of: /[0-9]+(\.[0-9])?/) != nil, "\(number)")
                }
            }
        }
        #expect(root.descendants("line").count == entry.segments.count - 1, "a dashed line per outage")
        let start = try #require(root.descendants("circle").first { $0.classes.contains("start") })
        #expect(start.attributes["fill"] == "#1e9e3e")
        #expect(root.descendants("circle").first { $0.classes.contains("end") }?.attributes["fill"] == "#d0312d")
    }
}
