import ArgumentParser

/// `trackctl play`: placeholder until the pseudo-terminal player lands.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "play", abstract: "Play an NMEA log into a pseudo-terminal.", shouldDisplay: false)
    func run() throws { throw ValidationError("not yet available") }
}
