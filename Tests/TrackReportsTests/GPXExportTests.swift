import Foundation
import Testing
import TrackCore
@testable import TrackReports

struct GPXExportTests {
    let report = ReportFixture.report()

    /// The trips a GPX must hold: not deleted, with at least one point.
    var recorded: [ReportTrip] {
        report.trips.filter { $0.trip.counts && !$0.segments.joined().isEmpty }
    }

    @Test func gpxHasOneTrackPerRecordedTripWithItsSegmentsAndPoints() throws {
        let root = try XMLTree.parse(GPXExport.render(report))
        #expect(root.name == "gpx")
        #expect(root.attributes["version"] == "1.1")
        #expect(root.attributes["xmlns"] == "http://www.topografix.com/GPX/1/1")
        let tracks = root.children("trk")
        #expect(tracks.count == recorded.count)
        #expect(report.trips.contains { $0.trip.state == .deleted && !$0.segments.isEmpty })
        for (track, entry) in zip(tracks, recorded) {
            #expect(track.child("number")?.text == entry.trip.id.description)
            #expect(track.child("type")?.text == entry.trip.kind.rawValue)
            let segments = track.children("trkseg")
            #expect(segments.map { $0.children("trkpt").count } == entry.segments.map(\.count))
        }
        #expect(root.descendants("trkpt").count == recorded.flatMap(\.segments).joined().count)
    }

    @Test func gpxTextIsEscapedAndReadsBackExactly() throws {
        let text = GPXExport.render(report)
        let root = try XMLTree.parse(text)
        let metadata = try #require(root.child("metadata"))
        #expect(metadata.child("name")?.text.contains(report.periodTitle) == true)
        #expect(metadata.child("author")?.child("name")?.text == ReportFixture.driver)
        #expect(metadata.child("desc")?.text.contains(ReportFixture.company) == true)
        #expect(metadata.child("desc")?.text.contains(ReportFixture.plate) == true)
        #expect(metadata.child("time")?.text == "2026-11-02T07:30:00Z")
        let first = try #require(recorded.first?.trip)
        let purpose = try #require(first.purpose)
        #expect(root.child("trk")?.child("name")?.text == "Trip \(first.id) — business: \(purpose)")
        #expect(!text.contains(purpose), "the purpose holds < & \" and must appear only escaped")
    }

    @Test func gpxTrackDescriptionSaysFromWhichPlaceToWhichTheTripWent() throws {
        let text = GPXExport.render(report)
        let root = try XMLTree.parse(text)
        func description(_ id: TripID) throws -> String {
            let track = try #require(root.children("trk").first { $0.child("number")?.text == id.description })
            return try #require(track.child("desc")?.text)
        }
        let trip41 = try #require(report.trips.first { $0.trip.id == 41 }?.trip)
        let km41 = LogTrip.kilometresText(tenths: trip41.reportedTenths.distance)
        #expect(try description(41)
            == "from Home to Example Ltd; customer: AS Näide; to: Tartu mnt 1; \(km41) km; 1 outage")
        // Only a start place; its name escaped in the file and read back whole.
        let trip47 = try #require(report.trips.first { $0.trip.id == 47 }?.trip)
        let km47 = LogTrip.kilometresText(tenths: trip47.reportedTenths.distance)
        #expect(try description(47)
            == "from =Depot & \"Yard\" <1>; customer: Kask & Põder, \"OÜ\"; to: Narva; \(km47) km")
        #expect(text.contains("<desc>from =Depot &amp; &quot;Yard&quot; &lt;1&gt;; "))
        // No place, no such words; and no waypoints for places.
        #expect(try !description(42).contains("from") && !description(42).hasPrefix("to "))
        #expect(root.descendants("wpt").isEmpty)
    }

    @Test func gpxPointsHaveSevenDecimalsAndUTCTimes() throws {
        let root = try XMLTree.parse(GPXExport.render(report))
        let points = root.descendants("trkpt")
        let expected = recorded.flatMap(\.segments).joined()
        #expect(points.count == expected.count)
        let sevenDecimals = /^-?[0-9]{1,3}\.[0-9]{7}$/
        for (element, point) in zip(points, expected) {
            let latitude = try #require(element.attributes["lat"])
            let longitude = try #require(element.attributes["lon"])
            #expect(latitude.wholeMatch(of: sevenDecimals) != nil)
            #expect(longitude.wholeMatch(of: sevenDecimals) != nil)
            #expect(abs(try #require(Double(latitude)) - point.coordinate.latitude) <= 0.5e-7 + 1e-12)
            #expect(abs(try #require(Double(longitude)) - point.coordinate.longitude) <= 0.5e-7 + 1e-12)
            let time = try #require(element.child("time")?.text)
            #expect(time.hasSuffix("Z"))
            #expect(UTCTime(iso8601: time) == point.time)
        }
    }

    @Test func gpxElementsFollowTheSchemasOrder() throws {
        let root = try XMLTree.parse(GPXExport.render(report))
        let metadataOrder = ["name", "desc", "author", "copyright", "link", "time", "keywords", "bounds", "extensions"]
        let trackOrder = ["name", "cmt", "desc", "src", "link", "number", "type", "extensions", "trkseg"]
        func inOrder(_ element: ParsedElement, _ order: [String]) -> Bool {
            let ranks = element.children.map { order.firstIndex(of: $0.name) ?? -1 }
            return !ranks.contains(-1) && ranks == ranks.sorted()
        }
        #expect(root.children.map(\.name).first == "metadata")
        #expect(inOrder(try #require(root.child("metadata")), metadataOrder))
        for track in root.children("trk") {
            #expect(inOrder(track, trackOrder), "\(track.children.map(\.name))")
        }
    }

    @Test func gpxValidatesAgainstTheGPX11Schema() throws {
        try #require(Xmllint.isInstalled, "xmllint is missing: apt-get install libxml2-utils (scripts/deps does it)")
        let result = try Xmllint.validate(GPXExport.render(report), schema: try Xmllint.gpxSchema())
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("validates"))
    }

    @Test func schemaCheckRejectsATrackWithElementsOutOfOrder() throws {
        try #require(Xmllint.isInstalled, "xmllint is missing: apt-get install libxml2-utils (scripts/deps does it)")
        let text = GPXExport.render(report)
        let id = try #require(recorded.first?.trip.id)
        let inOrder = "<number>\(id)</number>\n    <type>business</type>"
        #expect(text.contains(inOrder))
        let swapped = text.replacingOccurrences(of: inOrder, with: "<type>business</type>\n    <number>\(id)</number>")
        let result = try Xmllint.validate(swapped, schema: try Xmllint.gpxSchema())
        #expect(result.status != 0, "the schema check must catch a wrong element order")
    }

    @Test func gpxWithoutTracksIsStillValid() throws {
        try #require(Xmllint.isInstalled, "xmllint is missing: apt-get install libxml2-utils (scripts/deps does it)")
        var empty = ReportFixture.report(trips: [])
        empty.profile.driver = nil
        let text = GPXExport.render(empty)
        #expect(try XMLTree.parse(text).children("trk").isEmpty)
        let result = try Xmllint.validate(text, schema: try Xmllint.gpxSchema())
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(arguments: [(ReportFixture.withheldID, "route not kept (private trip, privacy mode)"),
                      (ReportFixture.erasedID, "route erased")])
    func aTripWithoutItsRouteHasNoTrackButAValidCommentNamingIt(id: TripID, note: String) throws {
        let routeless = ReportFixture.routelessReport()
        let text = GPXExport.render(routeless)
        let root = try XMLTree.parse(text)
        let entry = try #require(routeless.trips.first { $0.trip.id == id })
        #expect(!root.descendants("number").contains { $0.text == id.description })
        let kept = routeless.trips.filter { $0.trip.counts && $0.trip.route.isKept && !$0.segments.isEmpty }
        #expect(root.children("trk").map { $0.child("number")?.text } == kept.map { $0.trip.id.description })
        #expect(root.descendants("wpt").isEmpty && root.descendants("rte").isEmpty)
        // The same trip with its route prints these coordinates; without it, none of them.
        let coordinates = ReportFixture.coordinateTexts(of: entry)
        #expect(!ReportFixture.numbers(coordinates, standingIn: GPXExport.render(report)).isEmpty)
        let leaked = ReportFixture.numbers(coordinates, standingIn: text)
        #expect(leaked.isEmpty, "\(leaked)")
        let date = ReferenceClock().local(try #require(entry.trip.start)).date
        let km = LogTrip.kilometresText(tenths: entry.trip.reportedTenths.distance)
        #expect(text.contains("  <!-- Trip \(id) · \(date) · \(km) km · private: \(note) -->\n"))
        try #require(Xmllint.isInstalled, "xmllint is missing: apt-get install libxml2-utils (scripts/deps does it)")
        let result = try Xmllint.validate(text, schema: try Xmllint.gpxSchema())
        #expect(result.status == 0, "\(result.output)")
    }

    /// The points of `entry` as the log hands them out one by one, each with its segment's number.
    private func reader(_ entry: ReportTrip) -> GPXExport.PointReader {
        { body in
            for (number, segment) in entry.segments.enumerated() {
                for point in segment { try body(point, number) }
            }
        }
    }

    @Test func aTripWrittenAPointAtATimeIsTheTextItsReportRenders() throws {
        var entries = report.trips
        // One more: a point off the globe in the middle of a segment, one at longitude 180°, and a segment of
        // nothing drawable (left out whole).
        var odd = try #require(recorded.first)
        let point = try #require(odd.segments.first?.first)
        func moved(_ latitude: Double, _ longitude: Double, _ seconds: Double) -> TrackPoint {
            var copy = point
            copy.coordinate = Coordinate(latitude: latitude, longitude: longitude)
            copy.time = point.time.adding(seconds: seconds)
            return copy
        }
        odd.segments.append([moved(59.1, 24.1, 100), moved(.nan, 24.2, 101), moved(59.3, 180, 102)])
        odd.segments.append([moved(.nan, 24.4, 103)])
        odd.segments.append([moved(59.5, 24.5, 104)])
        entries.append(odd)
        var written = 0
        for entry in entries {
            var single = report
            single.trips = [entry]
            #expect(try GPXExport.draws(entry, points: reader(entry)) == GPXExport.draws(entry), "trip \(entry.trip.id)")
            guard GPXExport.draws(entry) else { continue }
            var text = ""
            try GPXExport.write(single, points: reader(entry)) { text += $0 }
            #expect(text == GPXExport.render(single), "trip \(entry.trip.id)")
            written += 1
        }
        #expect(written == recorded.count + 1)
        #expect(entries.contains { !GPXExport.draws($0) }, "the fixture has trips without a track too")
    }
}
