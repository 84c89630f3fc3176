import ArgumentParser
import TrackCore

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
}
