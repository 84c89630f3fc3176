import ArgumentParser
import TrackCore
import TrackStore

/// `trackctl check`: what a tax office would question in a period's entries.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "List what a tax office would question in a period (this month unless told otherwise).",
        discussion: """
            Every entry an auditor would question, with the rule and what would fix it: the profile's driver and \
            plate, unclassified trips, business trips without a purpose or with a vague one, gaps and overlaps in \
            the odometer, and the rules of the profile's country (docs/countries.md). Exit status 0 when nothing is \
            found, 4 when something is, so that it can run before the month's report goes out:
            trackctl check --last-month && trackctl export --mail --last-month
            """)

    @ParentCommand var trackctl: TrackControl
    @OptionGroup var period: PeriodOptions

    func run() async throws {
        let options = trackctl.connection
        let params = TripsParams(period: try period.period, kind: period.kind)
        let findings = try await LogAccess.read(options, .check, params, as: [LogFinding].self) { log, now in
            try await log.check(params, now: now)
        }
        if options.json {
            print(try ControlCall.json(findings))
        } else {
            let country = try await LogAccess.profile(options).country
            print(Self.describe(findings, country: country))
        }
        if !findings.isEmpty { throw ExitCode(ExitStatus.findings) }
    }

    /// The findings, three lines each, and a last line that counts them.
    static func describe(_ findings: [LogFinding], country: Country?) -> String {
        let rules = country.map { "the rules for \($0.name) and every log's" } ?? "every log's rules (no country in the profile)"
        guard !findings.isEmpty else { return "nothing to question by \(rules)" }
        var lines: [String] = []
        for finding in findings {
            lines.append("\(finding.trip.map { "trip \($0)" } ?? "profile") · \(finding.rule.rawValue): \(finding.problem)")
            lines.append("  why: \(finding.why)")
            lines.append("  fix: \(finding.fix)")
        }
        lines.append("\(findings.count) finding\(findings.count == 1 ? "" : "s") by \(rules)")
        return lines.joined(separator: "\n")
    }
}
