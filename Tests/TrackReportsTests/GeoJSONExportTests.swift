import Foundation
import Testing
import TrackCore
@testable import TrackReports

struct GeoJSONExportTests {
    let report = ReportFixture.report()

    /// The export read back with `JSONSerialization`: the collection and its features.
    func parsed(_ report: MileageReport) throws -> (collection: [String: Any], features: [[String: Any]]) {
        let text = try GeoJSONExport.render(report)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let collection = try #require(object as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        return (collection, features)
    }

    @Test func geojsonIsAFeatureCollectionWithOneFeaturePerTripDeletedOnesIncluded() throws {
        let (collection, features) = try parsed(report)
        #expect(collection["type"] as? String == "FeatureCollection")
        #expect(collection["crs"] == nil)
        #expect(features.count == report.trips.count)
        for (feature, entry) in zip(features, report.trips) {
            #expect(feature["type"] as? String == "Feature")
            #expect((feature["id"] as? NSNumber)?.int64Value == entry.trip.id.rawValue)
            let properties = try #require(feature["properties"] as? [String: Any])
            #expect(properties["state"] as? String == entry.trip.state.rawValue)
        }
        #expect(features.contains { ($0["properties"] as? [String: Any])?["state"] as? String == "deleted" })
    }

    @Test func geojsonGeometryFollowsTheSegmentsWithLongitudeFirst() throws {
        let (_, features) = try parsed(report)
        var kinds = Set<String>()
        for (feature, entry) in zip(features, report.trips) {
            let segments = entry.segments.filter { !$0.isEmpty }
            guard !segments.isEmpty else {
                #expect(feature["geometry"] is NSNull, "trip \(entry.trip.id)")
                continue
            }
            let geometry = try #require(feature["geometry"] as? [String: Any])
            let type = try #require(geometry["type"] as? String)
            kinds.insert(type)
            let lines: [[[Double]]]
            if segments.count == 1 {
                #expect(type == "LineString")
                lines = [try #require(geometry["coordinates"] as? [[Double]])]
            } else {
                #expect(type == "MultiLineString")
                lines = try #require(geometry["coordinates"] as? [[[Double]]])
            }
            #expect(lines.count == segments.count)
            for (line, segment) in zip(lines, segments) {
                #expect(line.count >= 2)
                #expect(line.count == max(2, segment.count))
                for (position, point) in zip(line, segment) {
                    #expect(position.count == 2)
                    #expect((-180...180).contains(position[0]) && (-90...90).contains(position[1]))
                    #expect(abs(position[0] - point.coordinate.longitude) <= 0.5e-6 + 1e-12)
                    #expect(abs(position[1] - point.coordinate.latitude) <= 0.5e-6 + 1e-12)
                    for value in position {
                        #expect(abs(value * 1e6 - (value * 1e6).rounded()) < 1e-6, "at most 6 decimals: \(value)")
                    }
                }
            }
        }
        #expect(kinds == ["LineString", "MultiLineString"])
    }

    @Test func geojsonRepeatsTheOnlyPointOfASinglePointSegment() throws {
        let (_, features) = try parsed(report)
        let index = try #require(report.trips.firstIndex { $0.segments.contains { $0.count == 1 } })
        let segmentIndex = try #require(report.trips[index].segments.firstIndex { $0.count == 1 })
        let geometry = try #require(features[index]["geometry"] as? [String: Any])
        let lines = try #require(geometry["coordinates"] as? [[[Double]]])
        let point = report.trips[index].segments[segmentIndex][0].coordinate
        #expect(lines[segmentIndex].count == 2)
        #expect(lines[segmentIndex][0] == lines[segmentIndex][1])
        #expect(abs(lines[segmentIndex][0][0] - point.longitude) < 1e-6)
    }

    @Test func geojsonPropertiesCarryTheTripsFieldsLocalTimesAndProfile() throws {
        let (_, features) = try parsed(report)
        let clock = ReferenceClock()
        for (feature, entry) in zip(features, report.trips) {
            let trip = entry.trip
            let properties = try #require(feature["properties"] as? [String: Any])
            #expect(properties["purpose"] as? String == trip.purpose)
            if trip.purpose == nil { #expect(properties["purpose"] is NSNull) }
            #expect(properties["kind"] as? String == trip.kind.rawValue)
            #expect(properties["source"] as? String == trip.source.rawValue)
            #expect((properties["distance_m"] as? NSNumber)?.doubleValue == trip.distance)
            #expect((properties["distance_km"] as? NSNumber)?.doubleValue
                == Double(trip.reportedTenths.distance) / 10)
            #expect(properties["driver"] as? String == ReportFixture.driver)
            #expect(properties["plate"] as? String == ReportFixture.plate)
            #expect(properties["company"] as? String == ReportFixture.company)
            if let start = trip.start {
                let local = try #require(properties["start_local"] as? String)
                #expect(UTCTime(iso8601: local) == start)
                #expect(local.hasPrefix("\(clock.local(start).date)T\(clock.local(start).time)"))
                #expect(local.hasSuffix(clock.local(start).offset))
                #expect(properties["date"] as? String == clock.local(start).date)
            } else {
                #expect(properties["start_local"] is NSNull)
            }
            if let end = trip.end {
                #expect(UTCTime(iso8601: try #require(properties["end_local"] as? String)) == end)
            }
        }
    }

    @Test func geojsonGivesEachTripsStartAndEndPlaceAndAddressAsTextLeavingOutWhatItHasNot() throws {
        let (_, features) = try parsed(report)
        func properties(_ id: TripID) throws -> [String: Any] {
            let feature = try #require(features.first { ($0["id"] as? NSNumber)?.int64Value == id.rawValue })
            return try #require(feature["properties"] as? [String: Any])
        }
        let trip41 = try properties(41)
        #expect(trip41["start_place"] as? String == "Home")
        #expect(trip41["start_address"] as? String == "Pärnu mnt 10, 10148 Tallinn")
        #expect(trip41["end_place"] as? String == "Example Ltd")
        #expect(trip41["end_address"] as? String == "Tartu mnt 1, Tallinn")
        // JSON needs no formula guard: the name as it is.
        let trip43 = try properties(43)
        #expect(trip43["end_place"] as? String == "=Depot & \"Yard\" <1>")
        #expect(trip43["end_address"] as? String == "-1 floor, Sadama 25, Tallinn")
        // A place without an address, and no end place: those keys are absent, not null.
        let trip47 = try properties(47)
        #expect(trip47["start_place"] as? String == "=Depot & \"Yard\" <1>")
        #expect(trip47.keys.contains("start_address") == false)
        #expect(trip47.keys.contains("end_place") == false && trip47.keys.contains("end_address") == false)
        let trip42 = try properties(42)
        #expect(["start_place", "start_address", "end_place", "end_address"].allSatisfy { !trip42.keys.contains($0) })
        // The start position stays beside the place's name.
        #expect((trip47["start_position"] as? [String: Any]) != nil)
    }

    @Test(arguments: [(ReportFixture.withheldID, "withheld", "route not kept (private trip, privacy mode)"),
                      (ReportFixture.erasedID, "erased", "route erased")])
    func aTripWithoutItsRouteKeepsItsFeatureWithNullGeometryAndNoPositions(id: TripID, route: String,
                                                                           note: String) throws {
        let routeless = ReportFixture.routelessReport()
        let text = try GeoJSONExport.render(routeless)
        let (_, features) = try parsed(routeless)
        #expect(features.count == routeless.trips.count)
        let entry = try #require(routeless.trips.first { $0.trip.id == id })
        let feature = try #require(features.first { ($0["id"] as? NSNumber)?.int64Value == id.rawValue })
        #expect(feature["geometry"] is NSNull)
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect(properties["route"] as? String == route)
        #expect(properties["start_position"] == nil && properties["end_position"] == nil)
        #expect((properties["notes"] as? [String])?.contains(note) == true)
        let start = try #require(entry.trip.start)
        #expect(properties["date"] as? String == ReferenceClock().local(start).date)
        let km = Double(entry.trip.reportedTenths.distance) / 10
        #expect((properties["distance_km"] as? NSNumber)?.doubleValue == km)
        #expect(properties["kind"] as? String == "private")
        // The same trip with its route prints these coordinates; without it, none of them.
        let coordinates = ReportFixture.coordinateTexts(of: entry)
        #expect(!ReportFixture.numbers(coordinates, standingIn: try GeoJSONExport.render(report)).isEmpty)
        let leaked = ReportFixture.numbers(coordinates, standingIn: text)
        #expect(leaked.isEmpty, "\(leaked)")
    }

    @Test func aTripWithoutItsRouteKeepsThePlacesItCarriesButNoPosition() throws {
        let (_, features) = try parsed(ReportFixture.routelessReport())
        let id = ReportFixture.erasedID
        let feature = try #require(features.first { ($0["id"] as? NSNumber)?.int64Value == id.rawValue })
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect(feature["geometry"] is NSNull)
        #expect(properties["start_place"] as? String == ReportFixture.depotAsItWas.name)
        #expect(properties["start_position"] == nil && properties["end_position"] == nil)
        #expect(properties["end_place"] == nil)
    }

    @Test func geojsonRefusesANumberThatIsNotFinite() {
        var trips = ReportFixture.trips()
        trips[0].trip.distance = .nan
        #expect(throws: ReportError.self) {
            try GeoJSONExport.render(ReportFixture.report(trips: trips))
        }
    }
}
