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
        print(LogText.table(trips, calendar: try await LogAccess.calendar(options)))
    }
}
