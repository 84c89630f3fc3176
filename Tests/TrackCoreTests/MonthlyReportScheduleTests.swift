import Testing
import TrackCore

/// Which ended month's report trackd sends by itself: the previous months within reach, with a trip, none open,
/// not sent yet; the oldest first.
struct MonthlyReportScheduleTests {
    static func day(_ text: String) -> CivilDate { CivilDate(iso8601: text)! }

    let schedule = MonthlyReportSchedule()

    @Test func theCandidatesAreTheTwoMonthsBeforeTodaysOldestFirstAcrossAYearsEnd() {
        #expect(schedule.candidates(today: Self.day("2026-12-01")) == [Self.day("2026-10-01"), Self.day("2026-11-01")])
        #expect(schedule.candidates(today: Self.day("2027-01-31")) == [Self.day("2026-11-01"), Self.day("2026-12-01")])
        #expect(schedule.candidates(today: Self.day("2027-02-15")) == [Self.day("2026-12-01"), Self.day("2027-01-01")])
        #expect(MonthlyReportSchedule(reach: 1).candidates(today: Self.day("2027-03-01")) == [Self.day("2027-02-01")])
        #expect(MonthlyReportSchedule(reach: 0).reach == 1)
    }

    @Test func theWindowAskedOfTheLogEndsBeforeTodaysMonth() {
        let window = schedule.window(today: Self.day("2026-12-07"))
        #expect(window.from == Self.day("2026-10-01"))
        #expect(window.until == Self.day("2026-12-01"))
    }

    @Test func theEndedMonthWithATripIsDueOnTheFirstDayOfTheNext() {
        let months = [MonthlyReportSchedule.Month(first: Self.day("2026-11-01"), trips: 3)]
        #expect(schedule.due(today: Self.day("2026-12-01"), months: months) == Self.day("2026-11-01"))
        #expect(schedule.due(today: Self.day("2026-11-30"), months: months) == nil, "November has not ended")
    }

    @Test func aMonthWithoutTripsOrBeforeTheFirstTripIsNeverDue() {
        #expect(schedule.due(today: Self.day("2026-12-01"), months: []) == nil)
        let empty = [MonthlyReportSchedule.Month(first: Self.day("2026-11-01"), trips: 0)]
        #expect(schedule.due(today: Self.day("2026-12-01"), months: empty) == nil)
    }

    @Test func aMonthAlreadySentByTrackdIsNotDueAgain() {
        let months = [MonthlyReportSchedule.Month(first: Self.day("2026-11-01"), trips: 3, sent: true)]
        #expect(schedule.due(today: Self.day("2026-12-01"), months: months) == nil)
    }

    @Test func theOldestUnsentMonthWithinReachGoesFirstThenTheNext() {
        var months = [MonthlyReportSchedule.Month(first: Self.day("2026-10-01"), trips: 5),
                      MonthlyReportSchedule.Month(first: Self.day("2026-11-01"), trips: 2)]
        #expect(schedule.due(today: Self.day("2026-12-03"), months: months) == Self.day("2026-10-01"))
        months[0].sent = true
        #expect(schedule.due(today: Self.day("2026-12-03"), months: months) == Self.day("2026-11-01"))
    }

    @Test func aMonthBeyondReachIsNeverSentByItself() {
        let months = [MonthlyReportSchedule.Month(first: Self.day("2026-09-01"), trips: 5)]
        #expect(schedule.due(today: Self.day("2026-12-01"), months: months) == nil)
        #expect(MonthlyReportSchedule(reach: 3).due(today: Self.day("2026-12-01"), months: months) == Self.day("2026-09-01"))
    }

    @Test func aMonthWithAnOpenTripWaitsUntilTheTripIsClosed() {
        var months = [MonthlyReportSchedule.Month(first: Self.day("2026-11-01"), trips: 2, openTrips: 1)]
        #expect(schedule.due(today: Self.day("2026-12-01"), months: months) == nil)
        #expect(schedule.waitingForOpenTrip(today: Self.day("2026-12-01"), months: months) == Self.day("2026-11-01"))
        months[0].openTrips = 0
        #expect(schedule.due(today: Self.day("2026-12-01"), months: months) == Self.day("2026-11-01"))
        #expect(schedule.waitingForOpenTrip(today: Self.day("2026-12-01"), months: months) == nil)
    }

    @Test func aMonthIsNamedByItsFirstDayWhicheverDayItIsGivenBy() {
        let month = MonthlyReportSchedule.Month(first: Self.day("2026-11-17"), trips: 1)
        #expect(month.first == Self.day("2026-11-01"))
    }
}
