import ArgumentParser
import TrackCore
import TrackStore
import TrackctlTexts

/// `trackctl confirm`: the driver confirms what rules made of trips (docs/rules.md).
struct ConfirmCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confirm", abstract: "Confirm what rules made of trips (trackctl trips marks them 'to confirm').",
        discussion: """
            trackctl confirm 12 14       # these trips
            trackctl confirm --all       # every trip a rule classified that is still to confirm
            trackctl confirm --undo 12   # takes trip 12's confirmation back, if nothing changed it since
            An edit (trackctl edit) confirms a trip too.
            """)

    @ParentCommand var trackctl: TrackControl

    @Argument(help: "The trips' numbers.")
    var ids: [TripID] = []

    @Flag(help: "Every trip still to confirm.")
    var all = false

    @Flag(help: "Take the trips' confirmations back (each trip's last change must be its confirmation).")
    var undo = false

    func validate() throws {
        if ids.isEmpty == !all { throw ValidationError(t("give the trips' numbers or --all")) }
        if undo && all { throw ValidationError(t("--undo takes back the confirmations of the trips named, not --all")) }
    }

    func run() async throws {
        let options = trackctl.connection
        let confirmed = try await LogAccess.change(options, .confirm, ConfirmParams(ids: all ? nil : ids, all: all ? true : nil,
                                                                                     undo: undo ? true : nil),
                                                   as: [LogTrip].self, command: "confirm")
        if options.json {
            print(try ControlCall.json(confirmed))
        } else if undo {
            print(t("to confirm again: \(confirmed.map { "\($0.id)" }.joined(separator: ", "))"))
        } else if confirmed.isEmpty {
            print(t("no trip was to confirm"))
        } else {
            let numbers = confirmed.map { "\($0.id)" }.joined(separator: ", ")
            print(confirmed.count == 1 ? t("confirmed 1 trip: \(numbers)") : t("confirmed \(confirmed.count) trips: \(numbers)"))
        }
    }
}
