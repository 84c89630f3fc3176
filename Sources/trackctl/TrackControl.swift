import ArgumentParser
import TrackCore

/// `trackctl`: the command-line tool for trackd.
@main
struct TrackControl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trackctl",
        abstract: "Control trackd and work with its mileage log and NMEA recordings.",
        version: TrackVersion.string,
        subcommands: [StatusCommand.self, WatchCommand.self, ReplayCommand.self, DecodeCommand.self, PlayCommand.self]
    )

    /// `--socket` and `--json`, given before the command: `trackctl --socket PATH status`.
    @OptionGroup var connection: ConnectionOptions
}
