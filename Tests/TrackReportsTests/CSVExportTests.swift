import Foundation
import Testing
import TrackCore
@testable import TrackReports

struct CSVExportTests {
    let report = ReportFixture.report()

    @Test func csvStartsWithByteOrderMarkAndEndsEveryRecordWithCRLF() throws {
        let text = try CSVExport.render(report)
        #expect(Array(text.utf8.prefix(3)) == [0xEF, 0xBB, 0xBF])
        #expect(text.hasSuffix("\r\n"))
        // The strict reader accepts a line feed only inside quotes and after a CR at the end of a record.
        let csv = try ParsedCSV(report)
        let lineFeedsInFields = csv.records.joined().reduce(0) { $0 + $1.unicodeScalars.count { $0 == "\n" } }
        let lineFeeds = text.unicodeScalars.count { $0 == "\n" }
        #expect(lineFeeds == csv.records.count + 1 + lineFeedsInFields)
    }

    @Test func csvHasTheHeaderOneRowPerTripAndTotalsRowsAllOfOneWidth() throws {
        let csv = try ParsedCSV(report)
        #expect(csv.header == ["id", "date", "start_time", "end_time", "start_utc", "end_utc", "odometer_start_km",
                               "odometer_end_km", "distance_km", "kind", "purpose", "customer", "destination",
                               "start_place", "start_address", "end_place", "end_address", "source", "state",
                               "driver", "plate", "company", "notes", "odometer_start_source", "odometer_end_source",
                               "commute", "detour"])
        #expect(csv.tripRows.map { $0["id"] } == report.trips.map { $0.trip.id.description })
        let hasUnclassified = report.trips.contains { $0.trip.counts && $0.trip.kind == .unclassified }
        #expect(hasUnclassified)
        #expect(csv.totalRows.map { $0["kind"] } == ["business", "private", "unclassified", "all"])
        for record in csv.records {
            #expect(record.count == csv.header.count)
        }
    }

    @Test func csvQuotesFieldsWithCommasQuotesAndLineBreaksAndTheyReadBackExactly() throws {
        let csv = try ParsedCSV(report)
        let rows = Dictionary(uniqueKeysWithValues: csv.tripRows.map { ($0["id"]!, $0) })
        for row in csv.tripRows {
            #expect(row["company"] == ReportFixture.company)
            #expect(row["driver"] == ReportFixture.driver)
        }
        let trip41 = try #require(report.trips.first { $0.trip.id == 41 }?.trip)
        #expect(rows["41"]?["purpose"] == trip41.purpose)
        #expect(csv.text.contains("\"Ööbik & Co, \"\"Kask\"\" OÜ\""))
        let deleted = try #require(report.trips.first { $0.trip.state == .deleted }?.trip)
        let reason = try #require(deleted.deletionReason)
        #expect(reason.contains("\n"))
        #expect(rows[deleted.id.description]?["notes"]?.contains("deleted: \(reason)") == true)
        #expect(rows[deleted.id.description]?["state"] == "deleted")
    }

    @Test func csvGuardsTextFieldsAgainstFormulaInjectionButNotNumbers() throws {
        let csv = try ParsedCSV(report)
        let textColumns = ["kind", "purpose", "customer", "destination", "start_place", "start_address", "end_place",
                           "end_address", "source", "state", "driver", "plate", "company", "notes"]
        for row in csv.rows {
            for column in textColumns {
                let first = row[column]?.unicodeScalars.first
                #expect(first.map { !["=", "+", "-", "@"].contains($0) } ?? true, "\(column): \(row[column] ?? "")")
            }
        }
        let rows = Dictionary(uniqueKeysWithValues: csv.tripRows.map { ($0["id"]!, $0) })
        for entry in report.trips {
            let row = try #require(rows[entry.trip.id.description])
            for (column, value) in [("purpose", entry.trip.purpose), ("customer", entry.trip.customer),
                                    ("destination", entry.trip.destination),
                                    ("start_place", entry.trip.startPlace?.name),
                                    ("start_address", entry.trip.startPlace?.address),
                                    ("end_place", entry.trip.endPlace?.name),
                                    ("end_address", entry.trip.endPlace?.address)] {
                let value = value ?? ""
                let dangerous = value.first.map { "=+-@".contains($0) } ?? false
                #expect(row[column] == (dangerous ? "'" + value : value))
            }
        }
        // A negative distance is a number and keeps its sign.
        let correction = try #require(report.trips.first { $0.trip.reportedTenths.distance < 0 }?.trip)
        #expect(tenths(rows[correction.id.description]?["distance_km"]) == correction.reportedTenths.distance)
    }

    @Test func csvShowsLocalDatesAndTimesInTheProfilesZoneAndUTCBeside() throws {
        let csv = try ParsedCSV(report)
        let clock = ReferenceClock()
        var offsets = Set<String>()
        var endsNextDay = 0
        for (entry, row) in zip(report.trips, csv.tripRows) {
            let trip = entry.trip
            if let start = trip.start {
                #expect(row["date"] == clock.local(start).date)
                #expect(row["start_time"] == clock.local(start).time)
                #expect(UTCTime(iso8601: row["start_utc"] ?? "") == start)
                offsets.insert(clock.local(start).offset)
            } else {
                #expect(row["start_time"] == "" && row["start_utc"] == "")
            }
            if let end = trip.end {
                #expect(row["end_time"] == clock.local(end).time)
                #expect(UTCTime(iso8601: row["end_utc"] ?? "") == end)
                if trip.start == nil { #expect(row["date"] == clock.local(end).date) }
                if let start = trip.start, clock.local(start).date != clock.local(end).date {
                    #expect(row["notes"]?.contains("ends on \(clock.local(end).date)") == true)
                    endsNextDay += 1
                }
            }
        }
        // The fixture spans the end of daylight saving time, so both offsets were exercised.
        #expect(offsets == ["+03:00", "+02:00"])
        #expect(endsNextDay == 1)
    }

    @Test func csvDistanceIsOdometerEndMinusStartAndOdometerRowsChain() throws {
        let csv = try ParsedCSV(report)
        var previousEnd: Int64?
        var chained = 0
        for (entry, row) in zip(report.trips, csv.tripRows) {
            let distance = try #require(tenths(row["distance_km"]))
            #expect(distance == entry.trip.reportedTenths.distance)
            guard let start = tenths(row["odometer_start_km"]), let end = tenths(row["odometer_end_km"]) else {
                #expect(entry.trip.odometerStart == nil)
                continue
            }
            #expect(end - start == distance)
            #expect(start == LogTrip.tenths(try #require(entry.trip.odometerStart)))
            if entry.trip.counts {
                if let previousEnd {
                    #expect(start == previousEnd)
                    chained += 1
                }
                previousEnd = end
            }
        }
        #expect(chained >= 4)
    }

    @Test func csvTotalsRowsEqualTheSumOfTheRowsByKindWithoutDeletedTrips() throws {
        let csv = try ParsedCSV(report)
        var sums: [String: Int64] = [:]
        for row in csv.tripRows where row["state"] != "deleted" {
            let distance = try #require(tenths(row["distance_km"]))
            sums[row["kind"]!, default: 0] += distance
            sums["all", default: 0] += distance
        }
        let deleted = try #require(csv.tripRows.first { $0["state"] == "deleted" })
        #expect(try #require(tenths(deleted["distance_km"])) != 0)
        for row in csv.totalRows {
            let kind = try #require(row["kind"])
            #expect(tenths(row["distance_km"]) == sums[kind, default: 0], "total \(kind)")
        }
        #expect(tenths(csv.totalRows.last?["distance_km"]) == report.totals.all)
    }

    @Test func csvTotalsRowsHaveTheirFiguresInTheirOwnColumnsAndTheOtherFieldsEmpty() throws {
        let csv = try ParsedCSV(report)
        let totals = csv.records.filter { $0.first == "total" }
        let summary = ReportSummary(report).lines
        #expect(totals.count == summary.count)
        let distance = try #require(csv.header.firstIndex(of: "distance_km"))
        let kind = try #require(csv.header.firstIndex(of: "kind"))
        let notes = try #require(csv.header.firstIndex(of: "notes"))
        // Columns added later come after the notes, so that no column moves.
        #expect(Array(csv.header.suffix(from: notes + 1)) == ["odometer_start_source", "odometer_end_source", "commute", "detour"])
        for (record, line) in zip(totals, summary) {
            #expect(record.count == csv.header.count)
            #expect(record[distance] == LogTrip.kilometresText(tenths: line.tenths))
            #expect(record[kind] == line.kind)
            #expect(record[notes] == (line.trips == 1 ? "1 trip" : "\(line.trips) trips"))
            let others = record.indices.filter { ![0, distance, kind, notes].contains($0) }
            #expect(others.allSatisfy { record[$0].isEmpty }, "\(record)")
        }
        #expect(totals.last?[notes] == "\(report.trips.filter(\.trip.counts).count) trips")
    }

    @Test func listsEachTripsStartAndEndPlaceWithTheirAddressesRightAfterTheDestination() throws {
        let csv = try ParsedCSV(report)
        let destination = try #require(csv.header.firstIndex(of: "destination"))
        #expect(Array(csv.header[(destination + 1)...(destination + 5)])
            == ["start_place", "start_address", "end_place", "end_address", "source"])
        let records = Dictionary(uniqueKeysWithValues: csv.records.filter { $0.first != "total" }.map { ($0[0], $0) })
        func places(_ id: TripID) throws -> [String] {
            Array(try #require(records[id.description])[(destination + 1)...(destination + 4)])
        }
        #expect(try places(41) == ["Home", "Pärnu mnt 10, 10148 Tallinn", "Example Ltd", "Tartu mnt 1, Tallinn"])
        // Names and addresses that a spreadsheet would run as formulas are guarded like any other text.
        #expect(try places(43) == ["Example Ltd", "Tartu mnt 1, Tallinn", "'=Depot & \"Yard\" <1>",
                                   "'-1 floor, Sadama 25, Tallinn"])
        // A start place without an address, and no end place: empty fields, the record as wide as the header.
        #expect(try places(47) == ["'=Depot & \"Yard\" <1>", "", "", ""])
        #expect(try places(42) == ["", "", "", ""])
        // Quoted as the RFC asks: the comma in the address, the doubled quotes in the name.
        #expect(csv.text.contains(",\"'=Depot & \"\"Yard\"\" <1>\",\"'-1 floor, Sadama 25, Tallinn\",manual,"))
    }

    @Test func csvLeavesOutTheUnclassifiedTotalWhenThereAreNoSuchTrips() throws {
        let trips = ReportFixture.trips().filter { $0.trip.kind != .unclassified }
        let csv = try ParsedCSV(ReportFixture.report(trips: trips))
        #expect(csv.totalRows.map { $0["kind"] } == ["business", "private", "all"])
        #expect(csv.tripRows.count == trips.count)
    }

    @Test(arguments: [(ReportFixture.withheldID, "route not kept (private trip, privacy mode)"),
                      (ReportFixture.erasedID, "route erased")])
    func aTripWithoutItsRouteKeepsItsRowWithoutPositionsAndSaysWhyInTheNotes(id: TripID, note: String) throws {
        let report = ReportFixture.routelessReport()
        let csv = try ParsedCSV(report)
        #expect(csv.header == CSVExport.columns, "the header must not change")
        let entry = try #require(report.trips.first { $0.trip.id == id })
        let row = try #require(csv.tripRows.first { $0["id"] == id.description })
        let start = try #require(entry.trip.start)
        #expect(row["date"] == ReferenceClock().local(start).date)
        #expect(row["start_time"] == ReferenceClock().local(start).time)
        #expect(tenths(row["odometer_start_km"]) == LogTrip.tenths(try #require(entry.trip.odometerStart)))
        #expect(tenths(row["distance_km"]) == entry.trip.reportedTenths.distance)
        #expect(row["kind"] == "private")
        #expect(row["notes"]?.contains(note) == true, "\(row["notes"] ?? "")")
        let leaked = ReportFixture.numbers(ReportFixture.coordinateTexts(of: entry), standingIn: csv.text)
        #expect(leaked.isEmpty, "\(leaked)")
        #expect(csv.tripRows.count == report.trips.count)
    }

    @Test func aTripWithoutItsRouteStillListsThePlacesItCarriesButNoPosition() throws {
        let report = ReportFixture.routelessReport()
        let csv = try ParsedCSV(report)
        let row = try #require(csv.tripRows.first { $0["id"] == ReportFixture.erasedID.description })
        #expect(row["start_place"] == "'" + ReportFixture.depotAsItWas.name)
        #expect(row["start_address"] == "" && row["end_place"] == "" && row["end_address"] == "")
        let entry = try #require(report.trips.first { $0.trip.id == ReportFixture.erasedID })
        let leaked = ReportFixture.numbers(ReportFixture.coordinateTexts(of: entry), standingIn: csv.text)
        #expect(leaked.isEmpty, "\(leaked)")
    }

    @Test func csvRefusesAnUnknownTimeZone() {
        #expect(throws: ReportError.unknownTimeZone("Europe/Talinn")) {
            try CSVExport.render(ReportFixture.report(timeZone: "Europe/Talinn"))
        }
    }

    @Test func eachTripSaysWhereItsOdometerReadingsCameFromInTheLastColumns() throws {
        var trips = ReportFixture.trips()
        trips[0].trip.odometerStartSource = .dashboard
        trips[0].trip.odometerEndSource = .car
        trips[1].trip.odometerStartSource = .car
        trips[1].trip.odometerEndSource = .gps
        let csv = try ParsedCSV(ReportFixture.report(trips: trips))
        let rows = Dictionary(uniqueKeysWithValues: csv.tripRows.map { ($0["id"] ?? "", $0) })
        for entry in trips {
            let row = try #require(rows[entry.trip.id.description])
            #expect(row["odometer_start_source"] == entry.trip.odometerStartSource?.rawValue ?? "")
            #expect(row["odometer_end_source"] == entry.trip.odometerEndSource?.rawValue ?? "")
        }
        #expect(rows[trips[0].trip.id.description]?["odometer_end_source"] == "car")
    }

    @Test func aCommuteAndADetourAreInTheirOwnLastColumns() throws {
        var trips = ReportFixture.trips()
        let privateIndex = try #require(trips.indices.first { trips[$0].trip.kind == .private })
        trips[privateIndex].trip.commute = true
        trips[0].trip.detour = "=2 km, road closed"
        let csv = try ParsedCSV(ReportFixture.report(trips: trips))
        let rows = Dictionary(uniqueKeysWithValues: csv.tripRows.map { ($0["id"] ?? "", $0) })
        for (index, entry) in trips.enumerated() {
            let row = try #require(rows[entry.trip.id.description])
            #expect(row["commute"] == (index == privateIndex ? "yes" : ""))
            #expect(row["kind"] == entry.trip.kind.rawValue)
        }
        // A text field like the others: guarded against formulas.
        #expect(rows[trips[0].trip.id.description]?["detour"] == "'=2 km, road closed")
        #expect(csv.totalRows.allSatisfy { $0["commute"] == "" && $0["detour"] == "" })
    }
}
