import ArgumentParser
import TrackCore
import TrackctlTexts

/// `trackctl edit ID`: reclassifies or annotates a trip, with a reason for the history.
struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change a trip's kind, purpose, customer, destination or places; the old values stay in its history.",
        discussion: "trackctl edit 12 --private --reason \"Drove home, not to the client\"")

    @ParentCommand var trackctl: TrackControl

    @Argument(help: "The trip's number.")
    var id: TripID

    @OptionGroup var fields: TripFields

    @Option(help: ArgumentHelp("The named place the trip started at ('' clears it).", valueName: "place"))
    var from: String?

    @Option(help: ArgumentHelp("The named place the trip ended at ('' clears it).", valueName: "place"))
    var to: String?

    @Option(help: "Why it changes (required; kept in the history).")
    var reason: String

    func validate() throws {
        if reason.trimmingWhitespace.isEmpty { throw ValidationError(t("--reason cannot be empty")) }
        if changes.isEmpty {
            throw ValidationError(t("nothing to change: give --business/--private/--unclassified, --commute, --purpose, --customer, --destination, --detour, --from or --to"))
        }
    }

    private var changes: TripChanges {
        TripChanges(kind: fields.kind, purpose: fields.purpose, customer: fields.customer, destination: fields.destination,
                    startPlace: from, endPlace: to, commute: fields.commute, detour: fields.detour)
    }

    func run() async throws {
        let trip = try await LogAccess.change(trackctl.connection, .edit, EditParams(id: id, changes: changes, reason: reason),
                                              as: LogTrip.self, command: "edit")
        if trackctl.connection.json {
            print(try ControlCall.json(trip))
        } else {
            print(t("trip \(trip.id) changed; trackctl show \(trip.id) gives its history"))
        }
    }
}
