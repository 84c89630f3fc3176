#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import SystemPackage
import TrackCore
import TrackReports
import TrackctlTexts

/// `trackctl erase --routes | --profile | --all`: erases for good, from the log, its WAL and the exports, and says
/// what it erased; the hash chain keeps the digests of what went and a record of the erasure.
struct EraseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase", abstract: "Erase routes, the names in the profile, or the whole log, for good.",
        discussion: """
            --routes takes track points and start and end positions (the trips stay, with their kilometres); \
            --before DATE and --private-only narrow it. --profile takes the driver, plate and company from the \
            profile and from the change history. --all leaves a new, empty log, as after installation; business \
            trips inside the retention period (privacy.retention_years) are refused unless --ignore-retention.

            Without --yes, trackctl shows what would go and asks. `trackctl verify` lists every erasure; \
            docs/privacy.md says what each kind of trip keeps and what the chain proves after an erasure.
            """)

    @ParentCommand var trackctl: TrackControl

    @Flag(help: "Erase routes: track points and positions (the trips stay).")
    var routes = false

    @Flag(help: "Erase the driver, plate and company from the profile and its history.")
    var profile = false

    @Flag(help: "Erase everything: every trip, reading, regular trip, the profile and the history.")
    var all = false

    @Option(help: "With --routes: only of trips dated before this day (YYYY-MM-DD).")
    var before: String?

    @Flag(help: "With --routes: only of private trips.")
    var privateOnly = false

    @Option(help: "Why (kept with the erasure's record).")
    var reason: String?

    @Flag(help: "With --all: erase business trips the tax office still wants kept, at the owner's own risk.")
    var ignoreRetention = false

    @Flag(help: "Only say what would be erased.")
    var dryRun = false

    @Flag(name: .shortAndLong, help: "Erase without asking.")
    var yes = false

    func validate() throws {
        let targets = [routes, profile, all].filter { $0 }.count
        guard targets == 1 else { throw ValidationError(t("say what to erase: one of --routes, --profile or --all")) }
        if let before, CivilDate(iso8601: before) == nil {
            throw ValidationError(t("'\(before)' is not a date: write YYYY-MM-DD, such as 2026-01-01"))
        }
        if !routes && (before != nil || privateOnly) {
            throw ValidationError(t("--before and --private-only go with --routes"))
        }
        if ignoreRetention && !all { throw ValidationError(t("--ignore-retention goes with --all")) }
    }

    func run() async throws {
        let options = trackctl.connection
        var params = EraseParams(target: routes ? .routes : profile ? .profile : .all,
                                 before: before.flatMap { CivilDate(iso8601: $0) }, privateOnly: privateOnly,
                                 reason: reason, dryRun: true, ignoreRetention: ignoreRetention)
        if !yes || dryRun {
            let preview = try await LogAccess.change(options, .erase, params, as: LogErasure.self, command: "erase")
            if dryRun || preview.isNothing {
                print(options.json ? try ControlCall.json(preview) : Self.describe(preview))
                return
            }
            guard !options.json else {
                throw Failure.exit(t("erase asks before it erases; with --json add --yes"), status: ExitStatus.refused,
                                   json: true)
            }
            print(Self.describe(preview))
            try confirm()
        }
        params.dryRun = false
        let erasure = try await LogAccess.change(options, .erase, params, as: LogErasure.self, command: "erase")
        print(options.json ? try ControlCall.json(erasure) : Self.describe(erasure))
    }

    /// Asks on the terminal; anything but "yes" keeps the log as it is.
    private func confirm() throws {
        guard isatty(STDIN_FILENO) != 0 else {
            throw Failure.exit(t("erase asks before it erases, and there is no terminal to ask on: add --yes"),
                               status: ExitStatus.refused, json: false)
        }
        print(t("This cannot be undone. Type yes to erase: "), terminator: "")
        // "yes", or the word the question asked for in trackctl's language.
        let answer = readLine()?.trimmingWhitespace.lowercased()
        guard answer == "yes" || answer == t("yes").lowercased() else {
            throw Failure.exit(t("nothing was erased"), status: ExitStatus.refused, json: false)
        }
    }

    /// What an erasure took, or would take, in words.
    static func describe(_ erasure: LogErasure) -> String {
        var lines: [String] = []
        if erasure.isNothing {
            lines.append(erasure.notes.first ?? t("nothing to erase"))
            return lines.joined(separator: "\n")
        }
        lines.append(erasure.done ? t("erased \(erasure.scope):") : t("would erase \(erasure.scope):"))
        switch erasure.target {
        case .routes:
            let trips = Words.trips(erasure.trips), points = erasure.trackPoints
            lines.append(erasure.trips.count == 1 ? t("  routes of 1 trip (\(trips)): \(points) track points and their positions")
                : t("  routes of \(erasure.trips.count) trips (\(trips)): \(points) track points and their positions"))
        case .profile:
            lines.append(erasure.revisions == 1
                ? t("  the profile's driver, plate and company, and their values in 1 entry of the change history")
                : t("  the profile's driver, plate and company, and their values in \(erasure.revisions) entries of the change history"))
        case .all:
            lines.append(t("  \(erasure.trackPoints) track points, \(erasure.revisions) entries of the change history, \(erasure.chainRecords) chain records"))
        }
        if erasure.done {
            if erasure.target != .all {
                lines.append(t("  the texts of \(erasure.chainRecords) chain records (their digests stay, so `trackctl verify` still passes)"))
            }
            if let record = erasure.chainRecord { lines.append(t("  recorded as chain record \(record)")) }
            if !erasure.exports.isEmpty {
                let files = erasure.exports.map { FilePath($0).lastComponent?.string ?? $0 }.joined(separator: ", ")
                lines.append(erasure.target == .all ? t("  exports removed: \(files)") : t("  exports written again: \(files)"))
            }
        }
        for note in erasure.notes { lines.append(t("  note: \(note)")) }
        return lines.joined(separator: "\n")
    }
}

extension LogErasure {
    /// Whether there was nothing to erase (a dry run that found nothing, or an erasure that did nothing).
    var isNothing: Bool {
        !done && notes.contains { $0.hasPrefix("nothing to erase") }
    }
}
