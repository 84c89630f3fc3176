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
            let bar = map.scaleBar()
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

    @Test func inMilesTheScaleBarShowsARoundNumberOfMiles() throws {
        for metres in [300.0, 4_000, 25_000, 180_000] {
            let map = try #require(TrackMap(segments: [line(count: 50, step: metres / 49, east: 1, north: 0)]))
            let bar = map.scaleBar(in: .miles)
            var mantissa = bar.metres / 1609.344
            while mantissa >= 10 - 1e-9 { mantissa /= 10 }
            while mantissa < 1 - 1e-9 { mantissa *= 10 }
            #expect([1.0, 2.0, 5.0].contains { abs($0 - mantissa) < 1e-6 }, "\(bar.metres / 1609.344) mi")
            #expect(bar.pixels <= (TrackMap.width - 2 * TrackMap.margin) / 3 + 1e-9)
            #expect(map.svg(title: "t", unit: .miles).contains(TrackMap.distanceText(bar.metres, unit: .miles) + "</text>"))
        }
        #expect(TrackMap.distanceText(804.672, unit: .miles) == "0.5 mi")
        #expect(TrackMap.distanceText(3218.688, unit: .miles) == "2 mi")
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

    @Test func aPlaceIsARingAtItsPositionLabelledWithItsNameAndTitledWithItsAddress() throws {
        let track = line(count: 21, step: 100, east: 1, north: 0)
        let start = TrackMap.Place(role: .start, coordinate: track[0], name: "Home & <Garden>",
                                   address: "Pärnu mnt 10, 10148 Tallinn")
        let end = TrackMap.Place(role: .end, coordinate: track[20], name: "Example Ltd", address: nil)
        let map = try #require(TrackMap(segments: [track], places: [start, end]))
        let root = try XMLTree.parse(map.svg(title: "Track"))
        let marks = root.descendants("g").filter { $0.classes.contains("place") }
        #expect(marks.map(\.classes) == [["place", "start-place"], ["place", "end-place"]])
        #expect(marks.map { $0.child("title")?.text }
            == ["Start: Home & <Garden>, Pärnu mnt 10, 10148 Tallinn", "End: Example Ltd"])
        #expect(marks.map { $0.child("text")?.text } == ["Home & <Garden>", "Example Ltd"])
        let rings = marks.compactMap { $0.child("circle") }
        #expect(rings.map { $0.attributes["stroke"] } == ["#1e9e3e", "#d0312d"])
        #expect(rings.map { $0.attributes["fill"] } == ["none", "none"])
        for (ring, point) in zip(rings, [map.segments[0][0], map.segments[0][map.segments[0].count - 1]]) {
            #expect(abs(try #require(Double(ring.attributes["cx"] ?? "")) - point.x) <= 0.05 + 1e-9)
            #expect(abs(try #require(Double(ring.attributes["cy"] ?? "")) - point.y) <= 0.05 + 1e-9)
        }
        // The labels lean towards the middle: the start's (on the left) to the right of its ring, the end's left.
        let labels = marks.compactMap { $0.child("text") }
        #expect(labels.map { $0.attributes["text-anchor"] } == ["start", "end"])
        #expect(try #require(Double(labels[0].attributes["x"] ?? "")) > map.places[0].x)
        #expect(try #require(Double(labels[1].attributes["x"] ?? "")) < map.places[1].x)
    }

    @Test func aPlaceBesideTheTrackIsFittedIntoTheBoxAtTheTracksScale() throws {
        let track = line(count: 11, step: 100, east: 1, north: 0)
        let aside = Geodesic.point(east: 500, north: 3_000, from: origin)
        let place = TrackMap.Place(role: .end, coordinate: aside, name: "Far depot", address: nil)
        let plain = try #require(TrackMap(segments: [track]))
        let map = try #require(TrackMap(segments: [track], places: [place]))
        let mark = try #require(map.places.first)
        #expect(mark.x >= TrackMap.margin - 1e-9 && mark.x <= TrackMap.width - TrackMap.margin + 1e-9)
        #expect(mark.y >= TrackMap.margin - 1e-9
            && mark.y <= TrackMap.height - TrackMap.margin - TrackMap.scaleBarSpace + 1e-9)
        // North is up, and the distance on the map is the distance on the ground.
        #expect(mark.y < map.segments[0][0].y)
        let metres = Geodesic.distance(from: origin, to: aside)
        let pixels = hypot(mark.x - map.segments[0][0].x, mark.y - map.segments[0][0].y)
        #expect(abs(pixels * map.metresPerPixel / metres - 1) < 0.01)
        #expect(map.metresPerPixel > plain.metresPerPixel, "the track is drawn smaller to make room")
    }

    @Test func placesOffTheGlobeAreNotMarkedAndPlacesAloneDrawNoMap() throws {
        let track = line(count: 5, step: 100, east: 1, north: 0)
        let lost = TrackMap.Place(role: .start, coordinate: Coordinate(latitude: .nan, longitude: 24.7), name: "Lost")
        let map = try #require(TrackMap(segments: [track], places: [lost]))
        #expect(map.places.isEmpty)
        #expect(try XMLTree.parse(map.svg(title: "")).descendants("g").allSatisfy { !$0.classes.contains("place") })
        let home = TrackMap.Place(role: .start, coordinate: origin, name: "Home")
        #expect(TrackMap(segments: [], places: [home]) == nil)
    }

    @Test func aLongNameIsCutOnItsLabelButWholeInItsTitle() throws {
        let name = "Harju County Central Warehouse, loading bay 12 (north gate)"
        #expect(name.count > TrackMap.labelLength)
        let track = line(count: 5, step: 100, east: 1, north: 0)
        let place = TrackMap.Place(role: .start, coordinate: track[0], name: name)
        let map = try #require(TrackMap(segments: [track], places: [place]))
        let mark = try #require(try XMLTree.parse(map.svg(title: "")).descendants("g").first {
            $0.classes.contains("place")
        })
        let label = try #require(mark.child("text")?.text)
        #expect(label == String(name.prefix(TrackMap.labelLength - 1)) + "…")
        #expect(label.count == TrackMap.labelLength)
        #expect(mark.child("title")?.text == "Start: " + name)
    }

    @Test func aRoundTripsStartAndEndLabelsDoNotOverlap() throws {
        // Out and back to the same place: both rings in one spot.
        let out = line(count: 11, step: 100, east: 1, north: 0)
        let back = Array(out.reversed())
        let home = TrackMap.Place(role: .start, coordinate: origin, name: "Home")
        let again = TrackMap.Place(role: .end, coordinate: origin, name: "Home")
        let map = try #require(TrackMap(segments: [out + back], places: [home, again]))
        let labels = try XMLTree.parse(map.svg(title: "")).descendants("text").filter {
            $0.classes.contains("place-label")
        }
        let ys = try labels.map { try #require(Double($0.attributes["y"] ?? "")) }
        #expect(ys.count == 2)
        #expect(ys[1] - ys[0] >= 9, "the end's label below the start's by at least a line of 9 px type")
    }
}
