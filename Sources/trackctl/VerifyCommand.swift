import ArgumentParser
import TrackCore
import TrackReports
import TrackStore

/// `trackctl verify`: checks the log against its hash chain.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Check that the log was not altered outside trackd (its hash chain).",
        discussion: """
            Exits 0 when every record matches the chain, 3 when one does not (naming the first broken record).
            On a log pulled off the card: trackctl --db /media/sd/trackd.sqlite verify
            """)

    @ParentCommand var trackctl: TrackControl

    func run() async throws {
        let options = trackctl.connection
        let report = try await LogAccess.read(options, .verify, NoParams(), as: VerificationReport.self) { log, _ in
            try await log.verify()
        }
        if options.json {
            print(try ControlCall.json(report))
        } else {
            for line in report.textLines { print(line) }
        }
        if !report.isIntact { throw ExitCode(ExitStatus.broken) }
    }
}
