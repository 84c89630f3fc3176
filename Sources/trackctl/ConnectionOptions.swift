import ArgumentParser
import Foundation

/// How trackctl reaches the daemon.
struct ConnectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "trackd's control socket (default: $TRACKD_SOCKET, else /run/trackd/control.sock).", valueName: "path"))
    var socket: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    /// The socket to use.
    var socketPath: String {
        socket ?? ProcessInfo.processInfo.environment["TRACKD_SOCKET"] ?? "/run/trackd/control.sock"
    }
}
