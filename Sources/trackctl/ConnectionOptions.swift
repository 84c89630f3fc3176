import ArgumentParser
import FoundationEssentials

/// How trackctl reaches the mileage log: trackd's socket, or a database file read directly.
struct ConnectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "trackd's control socket (default: $TRACKD_SOCKET, else /run/trackd/control.sock).", valueName: "path"))
    var socket: String?

    @Option(help: ArgumentHelp(
        "Read this database file instead of asking trackd (a log pulled off the SD card); it is never modified.",
        valueName: "path"))
    var db: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    /// The socket to use.
    var socketPath: String {
        socket ?? ProcessInfo.processInfo.environment["TRACKD_SOCKET"] ?? "/run/trackd/control.sock"
    }
}
