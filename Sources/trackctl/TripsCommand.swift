import ArgumentParser
import TrackCore
import TrackReports
import TrackStore

/// `trackctl trips`: the log's trips of a period.
struct TripsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trips", abstract: "List the trips of a period (this month unless told otherwise).",
        discussion: "trackctl trips --last-month --kind business")

    @ParentCommand var trackctl: TrackControl
    @OptionGroup var period: PeriodOptions

    func run() async throws {
        let options = trackctl.connection
        let params = TripsParams(period: try period.period, kind: period.kind)
        let trips = try await LogAccess.read(options, .trips, params, as: [LogTrip].self) { log, now in
            try await log.trips(params, now: now)
        }
        if options.json {
            print(try ControlCall.json(trips))
            return
        }
        let profile = try await LogAccess.profile(options)
        let calendar = try? LocalCalendar(profile: profile)
        var allowance: ReportAllowance?
        if let country = profile.country, profile.paysAllowance {
            // The amounts count every business trip of the tax years the period touches, from the first one's first
            // day to the period's end (a threshold, a cap).
            let now = LogAccess.now()
            let today = calendar?.date(of: now) ?? now.date
            let period = (params.period ?? .thisMonth).dates(today: today).map { (from: $0.from, through: $0.until.previous) }
            var year = trips
            if let period {
                let yearParams = TripsParams(period: .days(from: country.taxYear(of: period.from), to: period.through),
                                             kind: .business)
                year = try await LogAccess.read(options, .trips, yearParams, as: [LogTrip].self) { log, now in
                    try await log.trips(yearParams, now: now)
                }
            }
            allowance = ReportAllowance(MileageAllowance(country: country, entries: year, rates: LogAccess.rates(), ownRate: profile.rate),
                                        from: period?.from,
                                        through: period?.through)
        }
        print(LogText.table(trips, calendar: calendar, unit: profile.distanceUnit, allowance: allowance))
    }
}
