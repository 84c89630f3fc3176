import Foundation
import TestSupport
import Testing
import TrackCore
@testable import TrackStore

/// How well the rules guess (issue 59 item 8): a generated month of a courier's and a consultant's driving
/// (`DrivingMonth`) played in order through the log's API, the methods trackd's protocol calls: each trip recorded
/// and closed (the rules classify it as it closes), at each day's end the driver's review (a trip a rule classified
/// right is confirmed, one it classified wrong is corrected, one left unclassified is classified) and every rule
/// suggested then accepted. Counted per week: the trips rules classified right, wrong (an exception the driver's
/// pattern cannot predict, or not), and those left to the driver. The table is printed; docs/rules.md has it.
struct RuleAccuracyTests {
    /// One week's counts.
    struct Week {
        var trips = 0, right = 0, wrongException = 0, wrongOtherwise = 0, left = 0
        var share: Double { trips == 0 ? 0 : Double(right) / Double(trips) }
    }

    @Test(arguments: ["courier", "consultant"])
    func fromTheThirdWeekRulesClassifyFourTripsInFiveAndNoneWrongWhereTheirConditionsHold(who: String) async throws {
        let month = who == "courier" ? DrivingMonth.courier() : DrivingMonth.consultant()
        let weeks = try await Self.play(month)
        print(Self.table(month.who, weeks))
        for (index, week) in weeks.enumerated() {
            #expect(week.wrongOtherwise == 0, "week \(index + 1): a rule classified a trip wrong that its pattern predicts")
            if index >= 2 {
                #expect(week.share >= 0.8, "week \(index + 1): \(week.right) of \(week.trips) trips classified right by rules")
            }
        }
        #expect(weeks.map(\.trips).reduce(0, +) == month.drives.count)
    }

    /// Plays `month` into a new log: the weeks' counts.
    static func play(_ month: DrivingMonth) async throws -> [Week] {
        let folder = try TemporaryFolder()
        let log = try MileageLog.open(path: folder.file("trackd.sqlite"))
        let setUp = TestContext.at("2026-11-01T09:00:00Z")
        _ = try await log.setProfile(ProfileChanges(timeZone: "Europe/Berlin", country: "DE"), reason: "set up", context: setUp)
        var places: [String: PlaceID] = [:]
        var positions: [String: Coordinate] = [:]
        for spot in month.spots {
            let added = try await log.addPlace(Place(id: 0, name: spot.name, position: spot.position), reason: nil, context: setUp)
            places[spot.name] = added.place.id
            positions[spot.name] = spot.position
        }
        for rule in month.setup { _ = try await log.addRule(rule, reason: "set up", context: setUp) }

        var weeks = [Week](repeating: Week(), count: 4)
        for day in 2...29 {
            var today: [(trip: LogTrip, drive: DrivingMonth.Drive)] = []
            for drive in month.drives where drive.day == day {
                let trip = try await record(drive, in: log, from: positions[drive.from]!, to: positions[drive.to]!)
                #expect(trip.startPlace?.id == places[drive.from] && trip.endPlace?.id == places[drive.to],
                        "\(drive.from) → \(drive.to) on \(day): the trip's places")
                var week = weeks[drive.week - 1]
                week.trips += 1
                if trip.kind == .unclassified {
                    week.left += 1
                } else if matches(trip, drive.truth) {
                    week.right += 1
                } else if drive.exception {
                    week.wrongException += 1
                } else {
                    week.wrongOtherwise += 1
                }
                weeks[drive.week - 1] = week
                today.append((trip, drive))
            }
            // The day's end: the driver answers for each trip, then accepts what is suggested.
            let evening = TestContext.at(String(format: "2026-11-%02dT21:00:00Z", day))
            for (trip, drive) in today {
                if trip.kind != .unclassified && matches(trip, drive.truth) {
                    if trip.toConfirm { _ = try await log.confirmTrips(ConfirmParams(ids: [trip.id]), context: evening) }
                } else {
                    _ = try await log.editTrip(trip.id, changes(trip, to: drive.truth), reason: "the driver's review", context: evening)
                }
            }
            for suggestion in try await log.ruleSuggestions() {
                _ = try await log.addRule(suggestion.rule, reason: "suggested", context: evening)
            }
        }
        let report = try await log.verify()
        #expect(report.isIntact, "\(report.problems)")
        return weeks
    }

    /// Records and closes one drive as the daemon does: opened unclassified (a trip started at boot), two points,
    /// closed with its start and end positions.
    static func record(_ drive: DrivingMonth.Drive, in log: MileageLog, from: Coordinate, to: Coordinate) async throws -> LogTrip {
        let trip = try await log.beginTrip(kind: .unclassified, purpose: nil, customer: nil)
        let start = drive.start, end = start.adding(seconds: Double(drive.minutes * 60))
        let metres = Geodesic.distance(from: from, to: to)
        try await log.appendPoints([
            RecordedPoint(point: TrackPoint(time: start, coordinate: from, speed: 0, error: 3, distance: 0), segment: 0),
            RecordedPoint(point: TrackPoint(time: end, coordinate: to, speed: 0, error: 3, distance: metres), segment: 0),
        ], to: trip.id)
        return try await log.closeTrip(trip.id, TripSummary(start: start, end: end, startPosition: from, endPosition: to,
                                                            measuredDistance: metres, purpose: nil, endReason: "stopped"))
    }

    /// Whether the trip was classified as it truly was: kind, commute, and a business trip's purpose.
    static func matches(_ trip: LogTrip, _ truth: DrivingMonth.Truth) -> Bool {
        trip.kind == truth.kind && trip.commute == truth.commute && (truth.kind != .business || trip.purpose == truth.purpose)
    }

    /// What the driver changes to make `trip` what it truly was.
    static func changes(_ trip: LogTrip, to truth: DrivingMonth.Truth) -> TripChanges {
        var changes = TripChanges()
        if truth.commute {
            changes.commute = true
        } else {
            changes.kind = truth.kind
            if trip.commute { changes.commute = false }
        }
        if (trip.purpose ?? "") != (truth.purpose ?? "") { changes.purpose = truth.purpose ?? "" }
        if (trip.customer ?? "") != (truth.customer ?? "") { changes.customer = truth.customer ?? "" }
        return changes
    }

    /// The weeks as docs/rules.md shows them.
    static func table(_ who: String, _ weeks: [Week]) -> String {
        var lines = ["| \(who) | trips | by rules, right | wrong: exceptions | wrong: otherwise | left to the driver | right |",
                     "|---|---|---|---|---|---|---|"]
        for (index, week) in weeks.enumerated() {
            lines.append("| week \(index + 1) (\(2 + index * 7)–\(8 + index * 7) Nov) | \(week.trips) | \(week.right) | "
                         + "\(week.wrongException) | \(week.wrongOtherwise) | \(week.left) | \(Int((week.share * 100).rounded())) % |")
        }
        return lines.joined(separator: "\n")
    }
}
