import Foundation
import TrackCore

/// A month of one driver's driving, generated: the places the driver visits, each trip between two of them with the
/// trip's true classification, and the few exceptions no rule can know (a true kind that differs from what the
/// driver's own pattern for those places or hours says). November 2026 in Berlin (CET, UTC+1 all month), its four
/// whole weeks Monday 2 to Sunday 29. Deterministic: the same month each run.
struct DrivingMonth {
    /// A place the driver names, somewhere around Berlin.
    struct Spot {
        var name: String
        var position: Coordinate
    }

    /// What a trip truly was.
    struct Truth: Equatable {
        var kind: TripKind
        var commute = false
        var purpose: String?
        var customer: String?

        static let commute = Truth(kind: .private, commute: true)
        static let personal = Truth(kind: .private)
        static func business(_ purpose: String, _ customer: String? = nil) -> Truth {
            Truth(kind: .business, purpose: purpose, customer: customer)
        }
    }

    /// One trip as the driver drove it.
    struct Drive {
        var from: String
        var to: String
        /// Local day of November 2026 and local time (CET) it starts, and how long it takes.
        var day: Int
        var time: String
        var minutes: Int
        var truth: Truth
        /// Whether its truth is one the driver's pattern cannot predict (a private errand in work hours, a Sunday
        /// drive to the office on business).
        var exception = false

        var start: UTCTime {
            let parts = time.split(separator: ":").compactMap { Int($0) }
            let utc = parts[0] * 60 + parts[1] - 60
            return UTCTime(iso8601: String(format: "2026-11-%02dT%02d:%02d:00Z", day, utc / 60, utc % 60))!
        }
        /// 1 to 4: the week of November 2026 it falls in (Monday 2 to Sunday 8 is week 1).
        var week: Int { (day - 2) / 7 + 1 }
    }

    var who: String
    var spots: [Spot]
    /// The rules the driver sets up on the first day, before any trip (places by name).
    var setup: [ClassificationRule]
    var drives: [Drive]

    /// Places about 3 km apart on a line east of Berlin's centre, then rows north of it.
    static func spots(_ names: [String]) -> [Spot] {
        names.enumerated().map { index, name in
            Spot(name: name, position: Coordinate(latitude: 52.50 + Double(index / 6) * 0.03,
                                                  longitude: 13.30 + Double(index % 6) * 0.045))
        }
    }

    /// The weekdays (1 Monday … 7 Sunday) of November 2026's days 2 to 29.
    static func weekday(_ day: Int) -> Int { (day - 2) % 7 + 1 }

    /// A courier: from home to the depot and back each weekday (a commute), a round of five customers from the
    /// depot in work hours, the round depending on the weekday; the supermarket on Saturdays and the parents on
    /// Sundays. Sets up one rule on the first day: Mon–Fri 08:00–17:00 is business, "Delivery". Exceptions: a
    /// private errand to the pharmacy in work hours (and back), a Saturday drive to the depot for a parcel of their
    /// own; an urgent delivery after hours (left to the driver, not an exception: no rule claims it).
    static func courier() -> DrivingMonth {
        let customers = (1...10).map { "Customer \($0)" }
        let names = ["Home", "Depot", "Supermarket", "Parents", "Pharmacy"] + customers
        let rounds: [[Int]] = [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [2, 4, 6, 8, 10], [1, 3, 5, 7, 9], [10, 1, 5, 6, 3]]
        var drives: [Drive] = []
        for day in 2...29 {
            let weekday = weekday(day)
            if weekday <= 5 {
                drives.append(Drive(from: "Home", to: "Depot", day: day, time: "07:20", minutes: 25, truth: .commute))
                var at = "Depot"
                let stops = rounds[weekday - 1].map { "Customer \($0)" } + ["Depot"]
                for (index, stop) in stops.enumerated() {
                    let time = String(format: "%02d:%02d", 8 + index * 3 / 2, index % 2 == 0 ? 10 : 40)
                    drives.append(Drive(from: at, to: stop, day: day, time: time, minutes: 35, truth: .business("Delivery")))
                    at = stop
                }
                if day == 18 {
                    drives.append(Drive(from: "Depot", to: "Pharmacy", day: day, time: "16:20", minutes: 15, truth: .personal, exception: true))
                    drives.append(Drive(from: "Pharmacy", to: "Depot", day: day, time: "16:40", minutes: 15, truth: .personal, exception: true))
                }
                if day == 27 {
                    drives.append(Drive(from: "Depot", to: "Customer 4", day: day, time: "17:10", minutes: 30, truth: .business("Delivery")))
                    drives.append(Drive(from: "Customer 4", to: "Depot", day: day, time: "17:50", minutes: 30, truth: .business("Delivery")))
                }
                drives.append(Drive(from: "Depot", to: "Home", day: day, time: day == 27 ? "18:30" : "17:15", minutes: 25, truth: .commute))
            } else if weekday == 6 {
                drives.append(Drive(from: "Home", to: "Supermarket", day: day, time: "10:00", minutes: 15, truth: .personal))
                drives.append(Drive(from: "Supermarket", to: "Home", day: day, time: "11:00", minutes: 15, truth: .personal))
                if day == 21 {
                    drives.append(Drive(from: "Home", to: "Depot", day: day, time: "12:00", minutes: 25, truth: .personal, exception: true))
                    drives.append(Drive(from: "Depot", to: "Home", day: day, time: "12:45", minutes: 25, truth: .personal, exception: true))
                }
            } else {
                drives.append(Drive(from: "Home", to: "Parents", day: day, time: "14:00", minutes: 40, truth: .personal))
                drives.append(Drive(from: "Parents", to: "Home", day: day, time: "18:00", minutes: 40, truth: .personal))
            }
        }
        let hours = ClassificationRule(id: 0, condition: .hours(WorkHours(days: [1, 2, 3, 4, 5], start: 8 * 60, end: 17 * 60), outside: false),
                                       kind: .business, purpose: "Delivery")
        return DrivingMonth(who: "courier", spots: spots(names), setup: [hours], drives: drives.sorted { $0.start < $1.start })
    }

    /// A consultant: home to the office and back each weekday (a commute), lunch at a café (private), clients on
    /// fixed days (client A Monday and Thursday, B Tuesday, C Wednesday, D every other Friday), the gym on Monday and
    /// Wednesday evenings, the parents on Sundays; no rule set up (irregular hours): the rules come from suggestions.
    /// Exceptions: a Tuesday lunch at client B's that was private, a Sunday drive to the office on business; a new
    /// client once (left to the driver, not an exception).
    static func consultant() -> DrivingMonth {
        let names = ["Home", "Office", "Café", "Gym", "Parents", "Client A", "Client B", "Client C", "Client D", "Client E"]
        var drives: [Drive] = []
        func visit(_ client: String, day: Int, at time: String, back: String, exception: Bool = false) {
            let truth: Truth = exception ? .personal : .business("Consulting", client)
            drives.append(Drive(from: "Office", to: client, day: day, time: time, minutes: 30, truth: truth, exception: exception))
            drives.append(Drive(from: client, to: "Office", day: day, time: back, minutes: 30, truth: truth, exception: exception))
        }
        for day in 2...29 {
            let weekday = weekday(day)
            if weekday <= 5 {
                drives.append(Drive(from: "Home", to: "Office", day: day, time: "08:30", minutes: 30, truth: .commute))
                switch weekday {
                case 1, 4: visit("Client A", day: day, at: "10:00", back: "11:30")
                case 2: visit("Client B", day: day, at: "09:30", back: "11:00")
                case 3: visit("Client C", day: day, at: "14:00", back: "16:00")
                default:
                    if (day - 6) % 14 == 0 { visit("Client D", day: day, at: "10:00", back: "12:00") }
                    if day == 20 { visit("Client E", day: day, at: "14:00", back: "15:30") }
                }
                if day == 17 { visit("Client B", day: day, at: "12:30", back: "13:40", exception: true) } else {
                    drives.append(Drive(from: "Office", to: "Café", day: day, time: "12:30", minutes: 10, truth: .personal))
                    drives.append(Drive(from: "Café", to: "Office", day: day, time: "13:20", minutes: 10, truth: .personal))
                }
                drives.append(Drive(from: "Office", to: "Home", day: day, time: "17:30", minutes: 30, truth: .commute))
                if weekday == 1 || weekday == 3 {
                    drives.append(Drive(from: "Home", to: "Gym", day: day, time: "18:30", minutes: 15, truth: .personal))
                    drives.append(Drive(from: "Gym", to: "Home", day: day, time: "20:00", minutes: 15, truth: .personal))
                }
            } else if weekday == 7 {
                drives.append(Drive(from: "Home", to: "Parents", day: day, time: "14:00", minutes: 40, truth: .personal))
                drives.append(Drive(from: "Parents", to: "Home", day: day, time: "18:00", minutes: 40, truth: .personal))
                if day == 22 {
                    drives.append(Drive(from: "Home", to: "Office", day: day, time: "10:00", minutes: 30,
                                        truth: .business("Server room visit"), exception: true))
                    drives.append(Drive(from: "Office", to: "Home", day: day, time: "11:30", minutes: 30,
                                        truth: .business("Server room visit"), exception: true))
                }
            }
        }
        return DrivingMonth(who: "consultant", spots: spots(names), setup: [], drives: drives.sorted { $0.start < $1.start })
    }
}
