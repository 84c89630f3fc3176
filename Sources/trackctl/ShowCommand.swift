import ArgumentParser
import TrackCore
import TrackReports
import TrackStore

/// `trackctl show ID`: one trip with its change history and events.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show one trip with its change history and events.")

    @ParentCommand var trackctl: TrackControl

    @Argument(help: "The trip's number (trackctl trips lists them).")
    var id: TripID

    func run() async throws {
        let options = trackctl.connection
        let id = id
        let detail = try await LogAccess.read(options, .show, TripIDParams(id: id), as: TripDetail.self) { log, _ in
            try await log.tripDetail(id)
        }
        if options.json {
            print(try ControlCall.json(detail))
            return
        }
        let profile = try await LogAccess.profile(options)
        print(LogText.detail(detail, calendar: try? LocalCalendar(profile: profile), unit: profile.distanceUnit))
    }
}
