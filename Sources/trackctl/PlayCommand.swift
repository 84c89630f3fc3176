import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import TrackInput
import UnixSignals
import TrackctlTexts

/// `trackctl play LOG --link PATH`: plays an NMEA log into a pseudo-terminal, as if a serial receiver sent it.
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play an NMEA log into a pseudo-terminal, as a serial GPS receiver would send it.",
        discussion: """
            Creates a pseudo-terminal and writes the log's sentences into it at their recorded pace (or SPEED times \
            it). With --link, PATH becomes a symbolic link to the terminal, so that trackd can read \
            serial://PATH as if a receiver were plugged in. Until a reader opens the terminal, playback waits. \
            Ctrl-C (or SIGTERM) stops the playback, removes the link and exits with status 0.

            Example:
              trackctl play drive.nmea --link /tmp/gps0 --speed 10 &
              trackd --source serial:///tmp/gps0
            """
    )

    @Argument(help: "The NMEA log to play ('-' for standard input).")
    var log: String

    @Option(help: ArgumentHelp("Make PATH a symbolic link to the pseudo-terminal (replaces an older link).",
                               valueName: "path"))
    var link: String?

    @Option(help: "Play at this many times the recorded pace (0 = as fast as the reader takes it).")
    var speed: Double = 1

    @Flag(help: "Start again from the beginning at the end of the log, until stopped.")
    var loop = false

    func validate() throws {
        guard speed >= 0, speed.isFinite else {
            throw ValidationError(t("--speed must be a number ≥ 0 (1 = recorded pace, 0 = as fast as possible)"))
        }
        if let link, link.isEmpty { throw ValidationError(t("--link needs a path, e.g. /tmp/gps0")) }
        if loop && log == "-" { throw ValidationError(t("--loop needs a log file; standard input can be played once")) }
    }

    func run() async throws {
        signal(SIGPIPE, SIG_IGN)
        do {
            // Fail before the pseudo-terminal exists: the log opens and reads (standard input is not consumed).
            var file = try InputFile(path: log, chunkSize: 1)
            if log != "-" { _ = try file.next { _ in } }
        } catch {
            printError("trackctl play: \(error)")
            throw ExitCode(1)
        }
        // Caught from here on, so that the link is removed however the playback ends.
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm, .sighup)
        let terminal: PseudoTerminal
        do {
            terminal = try PseudoTerminal(linkPath: link)
        } catch {
            printError("trackctl play: \(error)")
            throw ExitCode(1)
        }
        defer { terminal.close() }

        let linked = link.map { t(" (linked as \($0))") } ?? ""
        let pace = speed == 0 ? t("full speed") : "\(PlayCommand.format(speed))×"
        printError(t("playing \(log) at \(pace) on \(terminal.slavePath)\(linked); stop with Ctrl-C"))

        let player = NMEAPlayer(path: log, speed: speed, loops: loop)
        let master = terminal.masterDescriptor
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await BlockingThread.run(name: "trackctl-play") { stop in
                        _ = try player.play(into: master, stop: stop)
                        // Let the reader take the last epoch before the hang-up discards it.
                        if !stop.isStopped { terminal.waitUntilDrained(timeout: 5, stop: stop) }
                    }
                }
                group.addTask { for await _ in signals { return } }
                // Whichever ends first (the log, or a signal) ends the other.
                try await group.next()
                group.cancelAll()
            }
        } catch {
            printError("trackctl play: \(error)")
            throw ExitCode(1)
        }
    }

    /// `1` rather than `1.0`, `2.5` as is.
    static func format(_ speed: Double) -> String {
        speed == speed.rounded() && abs(speed) < 1e15 ? String(Int(speed)) : String(speed)
    }
}
