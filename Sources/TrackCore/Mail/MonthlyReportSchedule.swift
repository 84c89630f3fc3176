/// Which ended month's report trackd sends by itself (docs/mail.md, "Every month by itself"). A month is due once
/// it has ended in the log's time zone, when it is one of the `reach` months before today's, has at least one trip
/// (deleted ones do not count), has no trip still open (a trip belongs to the month it started in, so one that runs
/// past midnight at the month's end is in the report only once it is closed), and trackd has not sent it by itself
/// yet. The oldest due month goes first. A month before the log's first trip has no trip, so it is never due; a
/// month further back than `reach` is never sent by itself, so a new installation on an old log, or a car that
/// was off for a season, does not mail a year of history (`trackctl export --mail` sends any month by hand).
///
/// "Today" and what the log holds come in as values: the caller reads the clock (GPS time first) and the log.
public struct MonthlyReportSchedule: Sendable, Hashable {
    /// What the log says of one month.
    public struct Month: Sendable, Hashable {
        /// The month's first day.
        public var first: CivilDate
        /// Its trips that are not deleted, open ones included.
        public var trips: Int
        /// Of those, the trips still open: running, or cut by a power loss and not closed yet.
        public var openTrips: Int
        /// Whether trackd has already sent its report by itself (a sending by hand does not count).
        public var sent: Bool

        public init(first: CivilDate, trips: Int, openTrips: Int = 0, sent: Bool = false) {
            self.first = first.firstOfMonth
            self.trips = trips
            self.openTrips = openTrips
            self.sent = sent
        }
    }

    /// The default reach: the month before today's and the one before that.
    public static let defaultReach = 2

    /// How many months before today's may still be sent by themselves (at least 1).
    public let reach: Int

    public init(reach: Int = defaultReach) {
        self.reach = max(1, reach)
    }

    /// The first days of the months that may be due on `today`, oldest first.
    public func candidates(today: CivilDate) -> [CivilDate] {
        var months: [CivilDate] = []
        var month = today.firstOfMonth
        for _ in 0..<reach {
            month = month.previous.firstOfMonth
            months.insert(month, at: 0)
        }
        return months
    }

    /// The dates to ask the log about on `today`: from the oldest candidate's first day up to, not including, the
    /// first day of today's month.
    public func window(today: CivilDate) -> (from: CivilDate, until: CivilDate) {
        (candidates(today: today)[0], today.firstOfMonth)
    }

    /// The first day of the month whose report is due on `today`, given what the log says of the candidates
    /// (`months`: a candidate it does not list has no trips); `nil` when none is due.
    public func due(today: CivilDate, months: [Month]) -> CivilDate? {
        candidates(today: today).first { first in
            guard let month = months.first(where: { $0.first == first }) else { return false }
            return month.trips > 0 && month.openTrips == 0 && !month.sent
        }
    }

    /// The first day of the oldest month that would be due but for a trip still open in it; `nil` when none waits.
    public func waitingForOpenTrip(today: CivilDate, months: [Month]) -> CivilDate? {
        candidates(today: today).first { first in
            guard let month = months.first(where: { $0.first == first }) else { return false }
            return month.trips > 0 && month.openTrips > 0 && !month.sent
        }
    }
}
