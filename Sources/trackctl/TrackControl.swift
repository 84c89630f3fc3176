import ArgumentParser
import FoundationEssentials
import TrackCore
import TrackctlTexts

/// `trackctl`: the command-line tool for trackd.
@main
struct TrackControl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trackctl",
        abstract: "Control trackd and work with its mileage log and NMEA recordings.",
        version: TrackVersion.string,
        subcommands: [
            StatusCommand.self, StartCommand.self, StopCommand.self, TripsCommand.self, ShowCommand.self, AddCommand.self,
            EditCommand.self, ConfirmCommand.self, DeleteCommand.self, RegularCommand.self, RulesCommand.self, OdometerCommand.self, ProfileCommand.self,
            ExportCommand.self, CheckCommand.self, RatesCommand.self, VerifyCommand.self, EraseCommand.self, PlaceCommand.self, WatchCommand.self, ReplayCommand.self,
            DecodeCommand.self,
            PlayCommand.self, WebCommand.self, SetupCommand.self,
        ]
    )

    /// `--socket`, `--db` and `--json`, given before the command: `trackctl --socket PATH status`.
    @OptionGroup var connection: ConnectionOptions

    /// Hears the terminal's language (`Speech`), then parses and runs the command as ArgumentParser's own `main` does.
    static func main() async {
        Speech.hear(environment: ProcessInfo.processInfo.environment)
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
