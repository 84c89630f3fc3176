import ArgumentParser
import ControlSocket
import TrackCore
import TrackctlTexts

/// `trackctl start`: starts a trip now.
struct StartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Start a trip now, from the latest GPS fix.",
        discussion: "trackctl start --business --purpose \"Visit to Example Ltd\" --customer \"Example Ltd\"")

    @ParentCommand var trackctl: TrackControl
    @OptionGroup var fields: TripFields

    func validate() throws {
        if fields.detour != nil {
            throw ValidationError(t("a detour is known once the trip is driven: give it afterwards, trackctl edit NUMBER --detour TEXT"))
        }
    }

    func run() async throws {
        let params = StartParams(kind: fields.kind(or: .unclassified), purpose: fields.purpose, customer: fields.customer,
                                 destination: fields.destination, commute: fields.commute)
        let trip = try await LogAccess.change(trackctl.connection, .start, params, as: LogTrip.self, command: "start")
        if trackctl.connection.json {
            print(try ControlCall.json(trip))
        } else {
            let kind = Words.kind(trip.kind) + (trip.commute ? t(", commute") : "")
            print(t("trip \(trip.id) started: \(kind)") + (trip.purpose.map { " (\($0))" } ?? ""))
            let status = try? await ControlClient.withConnection(socketPath: trackctl.connection.socketPath,
                                                                client: "trackctl \(TrackVersion.string)") { connection in
                try await connection.call(.status, params: NoParams(), result: DaemonStatus.self)
            }
            if let status, status.trip?.start == nil {
                let state = StatusCommand.word(status.source.state)
                print(t("no GPS fix yet (source \(state)): the trip begins at the first one; trackctl status shows the receiver"))
            }
            if trip.lacksPurpose { print(t("note: a business trip needs a purpose; add it when you stop: trackctl stop --purpose TEXT")) }
        }
    }
}
