import ArgumentParser
import TrackCore
import TrackReports
import TrackStore
import TrackctlTexts

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
            for line in Self.describe(report) { print(line) }
        }
        if !report.isIntact { throw ExitCode(ExitStatus.broken) }
    }

    /// The verdict in trackctl's language, as `VerificationReport.textLines` words it in English: the verdict, up to
    /// 20 further problems, the erasures.
    static func describe(_ report: VerificationReport) -> [String] {
        var lines: [String]
        if report.isIntact {
            let head = report.head ?? t("none")
            lines = [t("intact: \(report.chainRecords) chain records over \(report.trips) trips and \(report.revisions) changes; head \(head)")]
        } else {
            let first = report.problems[0].description
            lines = [report.problems.count == 1 ? t("ALTERED: 1 problem; first broken record: \(first)")
                                                : t("ALTERED: \(report.problems.count) problems; first broken record: \(first)")]
            lines += report.problems.dropFirst().prefix(20).map { "  \($0)" }
        }
        if !report.erasures.isEmpty {
            lines.append(t("erasures (the chain keeps the digests of what went):"))
            for erasure in report.erasures {
                var line = t("  \(erasure.time.iso8601(fractionDigits: 0)) by \(erasure.user): \(erasure.scope)")
                if erasure.target == .routes { line += t(" — \(Words.trips(erasure.trips)), \(erasure.trackPoints) points") }
                if let reason = erasure.reason { line += " — \(reason)" }
                lines.append(line + t(" (chain record \(erasure.chainRecord ?? 0))"))
            }
        }
        return lines
    }
}
