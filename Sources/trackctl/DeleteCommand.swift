import ArgumentParser
import TrackCore
import TrackctlTexts

/// `trackctl delete ID`: marks a trip deleted, with a reason; the entry stays in the log.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Mark a trip deleted (it stays in the log, out of the totals, with the reason).")

    @ParentCommand var trackctl: TrackControl

    @Argument(help: "The trip's number.")
    var id: TripID

    @Option(help: "Why it is deleted (required; kept in the history).")
    var reason: String

    func validate() throws {
        if reason.trimmingWhitespace.isEmpty { throw ValidationError(t("--reason cannot be empty")) }
    }

    func run() async throws {
        let trip = try await LogAccess.change(trackctl.connection, .delete, DeleteParams(id: id, reason: reason),
                                              as: LogTrip.self, command: "delete")
        if trackctl.connection.json {
            print(try ControlCall.json(trip))
        } else {
            print(t("trip \(trip.id) marked deleted; it stays in the log and its history"))
        }
    }
}
