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
            let profile = try await LogAccess.profile(options)
            print(Self.describe(findings, country: profile.country, words: .of(profile.spokenLanguage)))
        }
        if !findings.isEmpty { throw ExitCode(ExitStatus.findings) }
    }

    /// The findings, three lines each, and a last line that counts them, in the profile's language (`words`).
    static func describe(_ findings: [LogFinding], country: Country?, words: CheckWords = .english) -> String {
        let rules = words.rules(country)
        guard !findings.isEmpty else { return words.nothing(rules) }
        var lines: [String] = []
        for finding in findings {
            lines.append("\(finding.trip.map(words.trip) ?? words.profile) · \(finding.rule.rawValue): \(finding.problem)")
            lines.append("  \(words.why): \(finding.why)")
            lines.append("  \(words.fix): \(finding.fix)")
        }
        lines.append(words.count(findings.count, rules))
        return lines.joined(separator: "\n")
    }
}
