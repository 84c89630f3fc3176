#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import ControlSocket
import SystemPackage
import TrackCore
import TrackctlTexts

/// `trackctl stop`: ends the running trip.
struct StopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop", abstract: "End the running trip (at the last GPS fix).",
        discussion: """
            A business trip needs a purpose. Without --purpose, and when the trip has none yet, trackctl asks for it
            on a terminal; in a script (no terminal) it does not ask, and the trip is listed as "purpose missing"
            until 'trackctl edit ID --purpose TEXT --reason TEXT'.
            """)

    @ParentCommand var trackctl: TrackControl

    @Option(help: "What the trip was for, if not given at the start.")
    var purpose: String?

    @Option(help: "The customer, if not given at the start.")
    var customer: String?

    func run() async throws {
        let options = trackctl.connection
        var purpose = purpose
        if purpose == nil, !options.json, isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 {
            purpose = try await askForPurpose(options)
        }
        let trip = try await LogAccess.change(options, .stop, StopParams(purpose: purpose, customer: customer), as: LogTrip.self,
                                              command: "stop")
        if options.json {
            print(try ControlCall.json(trip))
        } else {
            let unit = try await LogAccess.unit(options)
            let distance = Format.figure(LogText.distance(trip, unit: unit)) + " " + unit.rawValue
            print(t("trip \(trip.id) ended: \(distance), \(Words.kind(trip.kind))") + (trip.purpose.map { " (\($0))" } ?? ""))
            if trip.lacksPurpose {
                print(t("note: a business trip needs a purpose: trackctl edit \(trip.id) --purpose TEXT --reason TEXT"))
            }
        }
    }

    /// Asks on the terminal for the purpose of a running business trip that has none; `nil` for no answer.
    private func askForPurpose(_ options: ConnectionOptions) async throws -> String? {
        guard options.db == nil else { return nil }
        let status = try await ControlCall.run(options) { connection in
            try await connection.call(.status, params: NoParams(), result: DaemonStatus.self)
        }
        guard let trip = status.trip, trip.kind == .business, (trip.purpose ?? "").isEmpty else { return nil }
        _ = try? FileDescriptor.standardError.writeAll(t("Purpose of business trip \(trip.number) (Enter to leave it open): ").utf8)
        let answer = readLine()?.trimmingWhitespace ?? ""
        return answer.isEmpty ? nil : answer
    }
}
