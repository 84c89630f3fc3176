import ArgumentParser
import TrackCore

/// `trackctl stop`: ends the running trip.
struct StopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop", abstract: "End the running trip (at the last GPS fix).")

    @ParentCommand var trackctl: TrackControl

    @Option(help: "What the trip was for, if not given at the start.")
    var purpose: String?

    func run() async throws {
        let trip = try await LogAccess.change(trackctl.connection, .stop, StopParams(purpose: purpose),
                                              as: LogTrip.self, command: "stop")
        if trackctl.connection.json {
            print(try ControlCall.json(trip))
        } else {
            print("trip \(trip.id) ended: \(LogText.kilometres(trip)) km, \(trip.kind)" + (trip.purpose.map { " (\($0))" } ?? ""))
        }
    }
}
