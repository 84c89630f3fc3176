import Foundation
import TrackCore

/// A realistic mileage report for October 2026 in Europe/Tallinn (daylight saving time ends on the 25th), built the
/// way the log would hold it. What the exports must show is computed from it by the tests.
///
/// - Profile: a driver with non-ASCII letters, a company name with a comma, quotes and an ampersand.
/// - Trip 41: GPS, business, two segments (an outage), a purpose with a comma, quotes, `<` and `&`; from `home` to
///   `office`, both at its start and end positions.
/// - Trip 42: GPS, private, a long segment and a one-point segment after an outage; ended by power loss; purpose
///   and destination that a spreadsheet would take for formulas (`-…`, `+…`).
/// - Trip 43: entered by hand, business without a purpose, no points; customer `=HYPERLINK(…)`, destination `@…`;
///   from `office` to `depot` (a name and an address a spreadsheet would take for formulas), no positions.
/// - Trip 44: GPS, deleted (drift while parked) with a reason on two lines; no odometer readings.
/// - Trip 45: kilometres no trip recorded (`unrecorded`, unclassified), only its end time known.
/// - Trip 46: a negative correction (−0.4 km).
/// - Trip 47: GPS, business, across local midnight into November; from `depotAsItWas` (before it had an address)
///   to no named place, with its start and end positions.
/// - Odometer readings that chain from one counted trip to the next; revisions with a newline and `<&>`.
enum ReportFixture {
    static let zone = "Europe/Tallinn"
    static let origin = Coordinate(latitude: 59.437, longitude: 24.7536)
    static let driver = "Jüri Õunapuu"
    static let plate = "123 ABC"
    static let company = "Ööbik & Co, \"Kask\" OÜ"
    /// Named places: two plain ones, and one whose name needs escaping in XML and guarding in a spreadsheet.
    static let home = TripPlace(id: 1, name: "Home", address: "Pärnu mnt 10, 10148 Tallinn")
    static let office = TripPlace(id: 2, name: "Example Ltd", address: "Tartu mnt 1, Tallinn")
    static let depot = TripPlace(id: 3, name: "=Depot & \"Yard\" <1>", address: "-1 floor, Sadama 25, Tallinn")
    /// The depot as trip 47 got it, before it had an address.
    static let depotAsItWas = TripPlace(id: 3, name: depot.name)

    /// The report.
    static func report() -> MileageReport {
        let profile = LogProfile(driver: driver, plate: plate, company: company, timeZone: zone,
                                 calibrationFactor: 1.02)
        let period = LogPeriod.month(year: 2026, month: 10)
        let today = CivilDate(year: 2026, month: 11, day: 2)!
        let dates = period.dates(today: today)!
        return MileageReport(profile: profile, period: period.description, periodTitle: period.title(today: today),
                             from: dates.from, until: dates.until, kind: .all, trips: trips(),
                             revisions: revisions(), chainHead: String(repeating: "0123456789abcdef", count: 4),
                             generatedAt: .at("2026-11-02T07:30:00Z"), generator: "trackctl 0.9.0")
    }

    /// The trips, oldest first.
    static func trips() -> [ReportTrip] {
        var odometer = 12_345_640.0
        func chained(_ metres: Double) -> (start: Double, end: Double) {
            defer { odometer += metres }
            return (odometer, odometer + metres)
        }

        let business1 = track(from: origin, start: .at("2026-10-23T06:05:00Z"), legs: [(40, 95), (30, 40)])
        let reading41 = chained(14_237.4)
        let trip41 = LogTrip(id: 41, kind: .business, purpose: "Customer visit, site \"B\" <north> & survey",
                             customer: "AS Näide", destination: "Tartu mnt 1", source: .gps, state: .closed,
                             start: .at("2026-10-23T06:05:00Z"), end: business1.end,
                             startPosition: business1.segments.first?.first?.coordinate,
                             endPosition: business1.segments.last?.last?.coordinate,
                             odometerStart: reading41.start, odometerEnd: reading41.end, distance: 14_237.4,
                             measuredDistance: 13_958.2, calibrationFactor: 1.02, gapCount: 1, bridgedSeconds: 95,
                             bridgedDistance: 1_240, endReason: "stopped", startPlace: home, endPlace: office)

        let private1 = track(from: Geodesic.point(east: 3_000, north: 1_500, from: origin),
                             start: .at("2026-10-24T15:20:00Z"), legs: [(50, 200), (1, 10)])
        let reading42 = chained(9_870)
        let trip42 = LogTrip(id: 42, kind: .private, purpose: "-20% sale at the mall",
                             destination: "+372 5555 1234 shop", source: .gps, state: .closed,
                             start: .at("2026-10-24T15:20:00Z"), end: private1.end,
                             odometerStart: reading42.start, odometerEnd: reading42.end, distance: 9_870,
                             measuredDistance: 9_676.5, calibrationFactor: 1.02, gapCount: 1, bridgedSeconds: 40,
                             bridgedDistance: 300, endReason: "power-lost")

        let reading43 = chained(31_500)
        let trip43 = LogTrip(id: 43, kind: .business, customer: "=HYPERLINK(\"evil.example/x\",\"Prize\")",
                             destination: "@Harbour", source: .manual, state: .closed,
                             start: .at("2026-10-26T07:00:00Z"), end: .at("2026-10-26T07:45:00Z"),
                             odometerStart: reading43.start, odometerEnd: reading43.end, distance: 31_500,
                             startPlace: office, endPlace: depot)

        let drift = track(from: Geodesic.point(east: 200, north: -300, from: origin),
                          start: .at("2026-10-26T12:00:00Z"), legs: [(6, 30)])
        let trip44 = LogTrip(id: 44, kind: .business, purpose: "Parking", source: .gps, state: .deleted,
                             start: .at("2026-10-26T12:00:00Z"), end: drift.end, distance: 812.3,
                             measuredDistance: 796.4, calibrationFactor: 1.02, endReason: "stopped",
                             deletionReason: "GPS drift while parked,\nnot a trip")

        let reading45 = chained(3_150)
        let trip45 = LogTrip(id: 45, kind: .unclassified, source: .unrecorded, state: .closed,
                             end: .at("2026-10-28T17:00:00Z"), odometerStart: reading45.start,
                             odometerEnd: reading45.end, distance: 3_150)

        let reading46 = chained(-400)
        let trip46 = LogTrip(id: 46, kind: .unclassified, source: .correction, state: .closed,
                             start: .at("2026-10-30T16:00:00Z"), end: .at("2026-10-30T16:00:00Z"),
                             odometerStart: reading46.start, odometerEnd: reading46.end, distance: -400)

        let night = track(from: Geodesic.point(east: -2_000, north: 4_000, from: origin),
                          start: .at("2026-10-31T21:50:00Z"), legs: [(60, 300)])
        let reading47 = chained(22_480.6)
        let trip47 = LogTrip(id: 47, kind: .business, purpose: "Night delivery", customer: "Kask & Põder, \"OÜ\"",
                             destination: "Narva", source: .gps, state: .closed, start: .at("2026-10-31T21:50:00Z"),
                             end: night.end, startPosition: night.segments.first?.first?.coordinate,
                             endPosition: night.segments.last?.last?.coordinate, odometerStart: reading47.start,
                             odometerEnd: reading47.end, distance: 22_480.6, measuredDistance: 22_039.8,
                             calibrationFactor: 1.02, idleAlerts: 1, endReason: "stopped", startPlace: depotAsItWas)

        return [ReportTrip(trip: trip41, segments: business1.segments),
                ReportTrip(trip: trip42, segments: private1.segments),
                ReportTrip(trip: trip43, segments: []),
                ReportTrip(trip: trip44, segments: drift.segments),
                ReportTrip(trip: trip45, segments: []),
                ReportTrip(trip: trip46, segments: []),
                ReportTrip(trip: trip47, segments: night.segments)]
    }

    /// Changes: a reason with a comma and a newline, one with `<&>`, one to the odometer without a reason.
    static func revisions() -> [LogRevision] {
        [LogRevision(id: 7, tripID: 41, subject: "trip", field: "kind", oldValue: "unclassified", newValue: "business",
                     time: .at("2026-10-23T10:00:00Z"), timeSource: "gps", user: "jyri",
                     reason: "Customer visit,\nconfirmed by phone"),
         LogRevision(id: 8, tripID: 44, subject: "trip", field: "state", oldValue: "closed", newValue: "deleted",
                     time: .at("2026-10-27T08:00:00Z"), timeSource: "system", user: "jyri",
                     reason: "drift <&> not a trip"),
         LogRevision(id: 9, tripID: nil, subject: "odometer", field: "reading", oldValue: nil, newValue: "12400.0",
                     time: .at("2026-10-28T17:00:00Z"), timeSource: "gps", user: "root", reason: nil)]
    }

    /// A track that heads east-north-east and bends a little, in segments of `count` points every 15 s with
    /// `pause` seconds of outage between segments; each point 180 m from the one before.
    static func track(from start: Coordinate, start time: UTCTime, legs: [(count: Int, pause: Double)])
        -> (segments: [[TrackPoint]], end: UTCTime) {
        var segments: [[TrackPoint]] = []
        var east = 0.0, north = 0.0, heading = 0.3, distance = 0.0
        var now = time
        for (index, leg) in legs.enumerated() {
            var segment: [TrackPoint] = []
            for _ in 0..<leg.count {
                segment.append(TrackPoint(time: now, coordinate: Geodesic.point(east: east, north: north, from: start),
                                          speed: 12, error: 3, distance: distance))
                east += 180 * cos(heading)
                north += 180 * sin(heading)
                heading += 0.05
                distance += 180
                now = now.adding(seconds: 15)
            }
            segments.append(segment)
            if index < legs.count - 1 { now = now.adding(seconds: leg.pause) }
        }
        return (segments, segments.last?.last?.time ?? time)
    }

    /// The fixture with another profile time zone, trips or revisions.
    static func report(timeZone: String = zone, trips: [ReportTrip]? = nil, revisions: [LogRevision]? = nil)
        -> MileageReport {
        var report = report()
        report.profile.timeZone = timeZone
        if let trips { report.trips = trips }
        if let revisions { report.revisions = revisions }
        return report
    }
}

extension UTCTime {
    /// A time from ISO 8601 text the fixture knows to be valid.
    static func at(_ text: String) -> UTCTime {
        UTCTime(iso8601: text)!
    }
}

/// The local date, clock time and offset in a zone as Foundation's calendar reckons them: the tests' independent
/// reference for local times.
struct ReferenceClock {
    let calendar: Calendar

    init(zone: String = ReportFixture.zone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        self.calendar = calendar
    }

    /// `2026-10-23`, `09:05` and `+03:00` for an instant.
    func local(_ time: UTCTime) -> (date: String, time: String, offset: String) {
        let date = Date(timeIntervalSince1970: time.secondsSinceEpoch)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let offset = calendar.timeZone.secondsFromGMT(for: date)
        func pad(_ value: Int, _ width: Int = 2) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        return ("\(pad(parts.year!, 4))-\(pad(parts.month!))-\(pad(parts.day!))",
                "\(pad(parts.hour!)):\(pad(parts.minute!))",
                "\(offset < 0 ? "-" : "+")\(pad(abs(offset) / 3600)):\(pad(abs(offset) / 60 % 60))")
    }
}
