import Foundation
import Testing
import TrackCore
@testable import TrackReports

struct HTMLReportTests {
    let report = ReportFixture.report()

    /// Trips that get a map: not deleted, with points.
    var mapped: [ReportTrip] {
        report.trips.filter { $0.trip.counts && !$0.segments.joined().isEmpty }
    }

    @Test func htmlIsWellFormedXHTMLWithAnHTML5Doctype() throws {
        let text = try HTMLReport.render(report)
        #expect(text.hasPrefix("<!DOCTYPE html>\n"))
        let root = try XMLTree.parse(text)
        #expect(root.name == "html")
        #expect(root.attributes["xmlns"] == "http://www.w3.org/1999/xhtml")
        #expect(root.attributes["lang"] == "en")
        #expect(root.child("head")?.child("title")?.text.contains(report.periodTitle) == true)
    }

    @Test func htmlHeaderNamesDriverPlateCompanyPeriodAndZone() throws {
        let root = try XMLTree.parse(HTMLReport.render(report))
        let header = try #require(root.child("body")?.child("header"))
        let facts = header.descendants("dt").map(\.text)
        let values = header.descendants("dd").map(\.text)
        let byTerm = Dictionary(uniqueKeysWithValues: zip(facts, values))
        #expect(byTerm["Driver"] == ReportFixture.driver)
        #expect(byTerm["Plate"] == ReportFixture.plate)
        #expect(byTerm["Company"] == ReportFixture.company)
        #expect(byTerm["Time zone"] == ReportFixture.zone)
        #expect(byTerm["By"] == report.generator)
        #expect(byTerm["Generated"]?.contains(report.generatedAt.iso8601(fractionDigits: 0)) == true)
        let local = ReferenceClock().local(report.generatedAt)
        #expect(byTerm["Generated"]?.contains("\(local.date) \(local.time) \(local.offset)") == true)
        #expect(header.text.contains(report.periodTitle))
    }

    @Test func htmlHasOneRowPerTripAndTheSameTotalsAsTheCSV() throws {
        let root = try XMLTree.parse(HTMLReport.render(report))
        let table = try #require(root.descendants("table").first { $0.classes.contains("trips") })
        let rows = table.descendants("tr").filter { $0.classes.contains("trip") }
        #expect(rows.map { $0.attributes["id"] } == report.trips.map { "trip-\($0.trip.id)" })
        for (row, entry) in zip(rows, report.trips) {
            let cells = row.children("td").map(\.text)
            #expect(cells.count == 11)
            #expect(tenths(cells[6]) == entry.trip.reportedTenths.distance)
        }
        let csv = try ParsedCSV(report)
        let totals = table.descendants("tr").filter { $0.classes.contains("total") }
        #expect(totals.map { $0.attributes["data-kind"] } == csv.totalRows.map { $0["kind"] })
        for (total, row) in zip(totals, csv.totalRows) {
            let km = try #require(total.children("td").first { $0.classes.contains("km") })
            #expect(tenths(km.text) == tenths(row["distance_km"]))
        }
    }

    @Test func htmlStrikesDeletedTripsWithTheReasonAndFlagsMissingPurposes() throws {
        let root = try XMLTree.parse(HTMLReport.render(report))
        let rows = Dictionary(uniqueKeysWithValues: root.descendants("tr").compactMap { row in
            row.attributes["id"].map { ($0, row) }
        })
        for entry in report.trips {
            let row = try #require(rows["trip-\(entry.trip.id)"])
            let notes = try #require(row.children("td").last)
            #expect(row.classes.contains("deleted") == (entry.trip.state == .deleted))
            let flagged = notes.descendants("span").contains { $0.classes.contains("missing") }
            #expect(flagged == entry.trip.lacksPurpose, "trip \(entry.trip.id)")
            if entry.trip.state == .deleted {
                // The reason's line break becomes <br/>: its lines follow one another.
                let reason = try #require(entry.trip.deletionReason)
                #expect(notes.text.contains("deleted: " + reason.replacingOccurrences(of: "\n", with: "")))
                #expect(notes.descendants("br").count >= 1)
            }
        }
        #expect(report.trips.contains { $0.trip.lacksPurpose && $0.trip.counts })
    }

    @Test func htmlShowsEachTripsStartAndEndPlaceInItsRowWithTheirAddresses() throws {
        let text = try HTMLReport.render(report)
        let root = try XMLTree.parse(text)
        func placesCell(_ id: TripID) throws -> ParsedElement {
            let row = try #require(root.descendants("tr").first { $0.attributes["id"] == "trip-\(id)" })
            let cells = row.children("td")
            #expect(cells.count == 11)
            return cells[9]
        }
        let cell41 = try placesCell(41)
        let places41 = try #require(cell41.children("span").first { $0.classes.contains("places") })
        #expect(places41.text == "Home (Pärnu mnt 10, 10148 Tallinn) → Example Ltd (Tartu mnt 1, Tallinn)")
        #expect(cell41.text == "AS NäideTartu mnt 1Home (Pärnu mnt 10, 10148 Tallinn) → Example Ltd (Tartu mnt 1, Tallinn)",
                "customer, destination, then the places")
        let from = try #require(places41.children("span").first { $0.classes.contains("from") })
        let to = try #require(places41.children("span").first { $0.classes.contains("to") })
        #expect(from.text == "Home (Pärnu mnt 10, 10148 Tallinn)" && from.attributes["title"] == "Pärnu mnt 10, 10148 Tallinn")
        #expect(to.text == "Example Ltd (Tartu mnt 1, Tallinn)" && to.attributes["title"] == "Tartu mnt 1, Tallinn")
        #expect(from.children("span").first?.classes.contains("address") == true)
        // Escaped, read back whole; a missing end place is a dash.
        let places47 = try #require(try placesCell(47).children("span").first { $0.classes.contains("places") })
        #expect(places47.text == "=Depot & \"Yard\" <1> → —")
        #expect(places47.children("span").first { $0.classes.contains("from") }?.attributes["title"] == nil)
        #expect(places47.children("span").first { $0.classes.contains("to") }?.classes.contains("none") == true)
        #expect(text.contains("=Depot &amp; &quot;Yard&quot; &lt;1&gt;"))
        #expect(!text.contains("\"Yard\" <1>"))
        #expect(try placesCell(43).descendants("span").first { $0.classes.contains("to") }?.attributes["title"]
            == "-1 floor, Sadama 25, Tallinn")
        // No places, no line for them.
        #expect(try placesCell(42).descendants("span").isEmpty)
        let header = try #require(root.descendants("th").map(\.text).first { $0.hasPrefix("Customer") })
        #expect(header == "Customer / destination / from → to")
    }

    @Test func htmlMarksTheStartAndEndPlaceOnTheTripsMapWithTheirNames() throws {
        let root = try XMLTree.parse(HTMLReport.render(report))
        func map(_ id: TripID) throws -> ParsedElement {
            let figure = try #require(root.descendants("figure").first { $0.attributes["id"] == "map-\(id)" })
            return try #require(figure.child("svg"))
        }
        func marks(_ id: TripID) throws -> [ParsedElement] {
            try map(id).descendants("g").filter { $0.classes.contains("place") }
        }
        let marks41 = try marks(41)
        #expect(marks41.map(\.classes) == [["place", "start-place"], ["place", "end-place"]])
        #expect(marks41.map { $0.child("text")?.text } == ["Home", "Example Ltd"])
        #expect(marks41.map { $0.child("title")?.text }
            == ["Start: Home, Pärnu mnt 10, 10148 Tallinn", "End: Example Ltd, Tartu mnt 1, Tallinn"])
        // Drawn where the trip started and ended: its positions are its track's ends here.
        for (role, ring) in zip(["start", "end"], marks41.compactMap { $0.child("circle") }) {
            let dot = try #require(try map(41).descendants("circle").first { $0.classes.contains(role) })
            #expect(ring.classes == ["place-ring"])
            #expect(ring.attributes["cx"] == dot.attributes["cx"] && ring.attributes["cy"] == dot.attributes["cy"])
        }
        // Trip 47 started at the depot (its name escaped, read back whole) and ended at no named place.
        let marks47 = try marks(47)
        #expect(marks47.map(\.classes) == [["place", "start-place"]])
        #expect(marks47.first?.child("text")?.text == "=Depot & \"Yard\" <1>")
        #expect(try marks(42).isEmpty)
    }

    @Test func htmlMarksNoPlaceWithoutAPositionToDrawItAtButStillNamesItInTheRow() throws {
        var trips = ReportFixture.trips()
        let index = try #require(trips.firstIndex { $0.trip.id == 41 })
        trips[index].trip.startPosition = nil
        trips[index].trip.endPosition = Coordinate(latitude: .nan, longitude: 24.7)
        let root = try XMLTree.parse(HTMLReport.render(ReportFixture.report(trips: trips)))
        let figure = try #require(root.descendants("figure").first { $0.attributes["id"] == "map-41" })
        #expect(figure.descendants("g").filter { $0.classes.contains("place") }.isEmpty)
        #expect(figure.descendants("polyline").count == trips[index].segments.count)
        let row = try #require(root.descendants("tr").first { $0.attributes["id"] == "trip-41" })
        #expect(row.descendants("span").first { $0.classes.contains("places") }?.text == "Home (Pärnu mnt 10, 10148 Tallinn) → Example Ltd (Tartu mnt 1, Tallinn)")
    }

    @Test func htmlListsEveryRevisionWithItsEscapedReason() throws {
        let root = try XMLTree.parse(HTMLReport.render(report))
        let rows = root.descendants("tr").filter { $0.classes.contains("revision") }
        #expect(rows.map { $0.attributes["data-id"] } == report.revisions.map { $0.id.description })
        let clock = ReferenceClock()
        for (row, revision) in zip(rows, report.revisions) {
            let cells = row.children("td")
            #expect(cells.count == 6)
            let local = clock.local(revision.time)
            #expect(cells[0].text.hasPrefix("\(local.date) \(local.time) \(local.offset)"))
            #expect(cells[1].text == revision.user)
            #expect(cells[3].text == revision.field)
            #expect(cells[4].text.contains("→"))
            if let new = revision.newValue { #expect(cells[4].text.contains(new)) }
            let reason = revision.reason ?? ""
            #expect(cells[5].text == reason.replacingOccurrences(of: "\n", with: ""))
            #expect(cells[5].children("br").count == reason.count { $0 == "\n" })
        }
        #expect(report.revisions.contains { $0.reason?.contains("<&>") == true })
    }

    @Test func htmlSaysNoChangesWithoutRevisions() throws {
        let root = try XMLTree.parse(HTMLReport.render(ReportFixture.report(revisions: [])))
        let history = try #require(root.descendants("section").first { $0.classes.contains("history") })
        #expect(history.text.contains("No changes"))
        #expect(history.descendants("tr").isEmpty)
    }

    @Test func htmlDrawsOneMapPerRecordedTripWithAPolylinePerSegment() throws {
        let root = try XMLTree.parse(HTMLReport.render(report))
        let figures = root.descendants("figure")
        #expect(root.descendants("svg").count == mapped.count)
        #expect(figures.map { $0.attributes["id"] } == mapped.map { "map-\($0.trip.id)" })
        for (figure, entry) in zip(figures, mapped) {
            let svg = try #require(figure.child("svg"))
            #expect(svg.attributes["xmlns"] == "http://www.w3.org/2000/svg")
            #expect(svg.descendants("polyline").count == entry.segments.count)
            #expect(svg.descendants("circle").filter { $0.classes.contains("start") }.count == 1)
            #expect(svg.descendants("circle").filter { $0.classes.contains("end") }.count == 1)
            let caption = try #require(figure.child("figcaption")?.text)
            #expect(caption.contains("Trip \(entry.trip.id)"))
            #expect(caption.contains(ReferenceClock().local(try #require(entry.trip.start)).date))
        }
    }

    @Test func htmlIsSelfContainedWithoutNetworkReferences() throws {
        let text = try HTMLReport.render(report)
        let root = try XMLTree.parse(text)
        var withoutNamespaces = text
        for namespace in ["xmlns=\"http://www.w3.org/1999/xhtml\"", "xmlns=\"http://www.w3.org/2000/svg\""] {
            withoutNamespaces = withoutNamespaces.replacingOccurrences(of: namespace, with: "")
        }
        #expect(!withoutNamespaces.contains("http://"))
        #expect(!withoutNamespaces.contains("https://"))
        #expect(!withoutNamespaces.contains("url("))
        #expect(!withoutNamespaces.contains("@import"))
        for name in ["script", "link", "img", "iframe", "object", "embed"] {
            #expect(root.descendants(name).isEmpty, "<\(name)>")
        }
        for element in [root] + allElements(root) {
            #expect(element.attributes["src"] == nil && element.attributes["href"] == nil)
        }
    }

    @Test func htmlPrintsOnA4WithRepeatingHeadersAndUnbrokenRows() throws {
        let root = try XMLTree.parse(HTMLReport.render(report))
        let style = try #require(root.child("head")?.child("style")?.text)
        #expect(style.contains("@page { size: A4; margin: 14mm; }"))
        #expect(style.contains("thead { display: table-header-group; }"))
        #expect(style.contains("break-inside: avoid"))
    }

    @Test func htmlFooterShowsTheChainHeadAndHowToCheckIt() throws {
        let root = try XMLTree.parse(HTMLReport.render(report))
        let footer = try #require(root.child("body")?.child("footer"))
        #expect(footer.descendants("code").first?.text == report.chainHead)
        #expect(footer.text.contains("trackctl verify"))
    }

    @Test(arguments: [(ReportFixture.withheldID, "route not kept (private trip, privacy mode)"),
                      (ReportFixture.erasedID, "route erased")])
    func aTripWithoutItsRouteHasNoMapButALineSayingWhyAndKeepsItsRow(id: TripID, note: String) throws {
        let routeless = ReportFixture.routelessReport()
        let text = try HTMLReport.render(routeless)
        let root = try XMLTree.parse(text)
        let entry = try #require(routeless.trips.first { $0.trip.id == id })
        let date = ReferenceClock().local(try #require(entry.trip.start)).date
        let km = LogTrip.kilometresText(tenths: entry.trip.reportedTenths.distance)
        // Its row: date, kilometres, kind and the note.
        let row = try #require(root.descendants("tr").first { $0.attributes["id"] == "trip-\(id)" })
        let cells = row.children("td").map(\.text)
        #expect(cells[1] == date && cells[6] == km && cells[7] == "private")
        #expect(cells[10].contains(note))
        // No map: the maps of the trips that keep their route only, and none that the trip would have had.
        let mapped = routeless.trips.filter { $0.trip.counts && $0.trip.route.isKept && !$0.segments.isEmpty }
        #expect(root.descendants("figure").map { $0.attributes["id"] } == mapped.map { "map-\($0.trip.id)" })
        #expect(root.descendants("svg").count == mapped.count)
        let wouldBe = try #require(TrackMap(segments: entry.segments.map { $0.map(\.coordinate) }))
        let polylines = try XMLTree.parse(wouldBe.svg(title: "Track of trip \(id)")).descendants("polyline")
        let points = polylines.compactMap { $0.attributes["points"] }
        #expect(points.count == entry.segments.count)
        let withRoutes = try HTMLReport.render(report)
        #expect(points.allSatisfy { withRoutes.contains("points=\"\($0)\"") })
        #expect(!points.contains { text.contains("points=\"\($0)\"") })
        let leaked = ReportFixture.numbers(ReportFixture.coordinateTexts(of: entry), standingIn: text)
        #expect(leaked.isEmpty, "\(leaked)")
        // In the maps section, a line in its place.
        let section = try #require(root.descendants("section").first { $0.classes.contains("maps-section") })
        let line = try #require(section.descendants("li").first { $0.attributes["id"] == "route-\(id)" })
        #expect(line.text == "Trip \(id) · \(date) · \(km) km · private: \(note)")
    }

    @Test func aTripWithoutItsRouteNamesThePlacesItCarriesInItsRowButMarksThemOnNoMap() throws {
        let routeless = ReportFixture.routelessReport()
        let text = try HTMLReport.render(routeless)
        let root = try XMLTree.parse(text)
        let id = ReportFixture.erasedID
        let row = try #require(root.descendants("tr").first { $0.attributes["id"] == "trip-\(id)" })
        let places = row.descendants("span").first { $0.classes.contains("places") }
        #expect(places?.text == "=Depot & \"Yard\" <1> → —")
        #expect(!root.descendants("figure").contains { $0.attributes["id"] == "map-\(id)" })
        // The depot's only mark was on this trip's map: none is left anywhere.
        let labels = root.descendants("svg").flatMap { $0.descendants("text") }.map(\.text)
        #expect(!labels.contains(ReportFixture.depotAsItWas.name))
        #expect(labels.contains("Home"), "the other trips' marks stay")
        let entry = try #require(routeless.trips.first { $0.trip.id == id })
        #expect(entry.trip.mapPlaces.isEmpty)
        let leaked = ReportFixture.numbers(ReportFixture.coordinateTexts(of: entry), standingIn: text)
        #expect(leaked.isEmpty, "\(leaked)")
    }

    @Test func aMonthWhoseTripsHaveNoRouteDrawsNoMapAndNoEmptyFrame() throws {
        let trips = ReportFixture.routelessTrips().filter { !$0.trip.route.isKept || $0.segments.isEmpty }
        #expect(trips.contains { $0.trip.route == .withheld } && trips.contains { $0.trip.route == .erased })
        let root = try XMLTree.parse(HTMLReport.render(ReportFixture.report(trips: trips)))
        let section = try #require(root.descendants("section").first { $0.classes.contains("maps-section") })
        #expect(section.descendants("svg").isEmpty && section.descendants("figure").isEmpty)
        #expect(!section.descendants("div").contains { $0.classes.contains("maps") })
        #expect(section.text.contains("No recorded tracks in this period."))
        let lines = section.descendants("li").map { $0.attributes["id"] }
        #expect(lines == ["route-\(ReportFixture.withheldID)", "route-\(ReportFixture.erasedID)"])
    }

    /// Every element below `root`.
    func allElements(_ root: ParsedElement) -> [ParsedElement] {
        root.children.flatMap { [$0] + allElements($0) }
    }

    @Test func htmlMarksEachOdometerReadingWithWhereItCameFromAndExplainsTheLetters() throws {
        // Without sources (entries from before the log kept them): no letters, no legend.
        let plain = try XMLTree.parse(HTMLReport.render(report))
        #expect(plain.descendants("span").filter { $0.classes.contains("source") }.isEmpty)
        #expect(plain.descendants("p").filter { $0.classes.contains("sources") }.isEmpty)

        var trips = ReportFixture.trips()
        trips[0].trip.odometerStartSource = .dashboard
        trips[0].trip.odometerEndSource = .car
        let root = try XMLTree.parse(HTMLReport.render(ReportFixture.report(trips: trips)))
        let row = try #require(root.descendants("tr").first { $0.attributes["id"] == "trip-\(trips[0].trip.id)" })
        let marks = row.descendants("span").filter { $0.classes.contains("source") }
        #expect(marks.map(\.text) == ["D", "C"])
        #expect(marks.map { $0.attributes["title"] } == ["a dashboard reading typed in", "read from the car (OBD-II)"])
        let legend = try #require(root.descendants("p").first { $0.classes.contains("sources") })
        #expect(legend.text == "Odometer readings: C read from the car (OBD-II) · D a dashboard reading typed in.")
    }
}
