import ArgumentParser
import TrackCore
import TrackStore

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
        if ids.isEmpty == !all { throw ValidationError("give the trips' numbers or --all") }
        if undo && all { throw ValidationError("--undo takes back the confirmations of the trips named, not --all") }
    }

    func run() async throws {
        let options = trackctl.connection
        let confirmed = try await LogAccess.change(options, .confirm, ConfirmParams(ids: all ? nil : ids, all: all ? true : nil,
                                                                                     undo: undo ? true : nil),
                                                   as: [LogTrip].self, command: "confirm")
        if options.json {
            print(try ControlCall.json(confirmed))
        } else if undo {
            print("to confirm again: " + confirmed.map { "\($0.id)" }.joined(separator: ", "))
        } else if confirmed.isEmpty {
            print("no trip was to confirm")
        } else {
            print("confirmed \(confirmed.count) trip\(confirmed.count == 1 ? "" : "s"): "
                  + confirmed.map { "\($0.id)" }.joined(separator: ", "))
        }
    }
}
