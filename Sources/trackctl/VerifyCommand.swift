import ArgumentParser
import TrackCore
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
        } else if report.isIntact {
            print("intact: \(report.chainRecords) chain records over \(report.trips) trips and \(report.revisions) changes; "
                  + "head \(report.head ?? "none")")
        } else {
            print("ALTERED: \(report.problems.count) problem\(report.problems.count == 1 ? "" : "s"); first broken record: "
                  + report.problems[0].description)
            for problem in report.problems.dropFirst().prefix(20) { print("  \(problem)") }
        }
        if !options.json && !report.erasures.isEmpty {
            print("erasures (the chain keeps the digests of what went):")
            for erasure in report.erasures {
                print("  \(erasure.time.iso8601(fractionDigits: 0)) by \(erasure.user): \(erasure.scope)"
                      + (erasure.target == .routes ? " — \(EraseCommand.list(erasure.trips)), \(erasure.trackPoints) points" : "")
                      + (erasure.reason.map { " — \($0)" } ?? "") + " (chain record \(erasure.chainRecord ?? 0))")
            }
        }
        if !report.isIntact { throw ExitCode(ExitStatus.broken) }
    }
}
