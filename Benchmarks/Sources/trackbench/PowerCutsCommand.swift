import ArgumentParser
import Foundation

/// `trackbench power-cuts`: the power-cut harness (issue 7, item 1) with its PASS/FAIL summary.
struct PowerCutsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "power-cuts",
        abstract: "Kill trackd with SIGKILL at seeded random instants while it records a fast drive; check the log after each.",
        discussion: """
            Each round restarts trackd on the drive where it has got to (the receiver kept running while the power \
            was off), waits for its first fix, kills it a drawn instant later, and checks a copy of the files: \
            PRAGMA integrity_check, no trip lost or duplicated, the trip left open resumed or closed as \
            docs/storage.md says, trackctl verify, and the accepted track missing before the kill. A last round \
            stops trackd with SIGTERM. Exits 1 when an invariant is broken or the loss goal is missed.
            """)

    @Option(help: "Seed of the random choices (off times, kill instants).")
    var seed: UInt64 = 1

    @Option(help: "Kills.")
    var rounds = 200

    @Option(help: "The drive, an NMEA file with dated RMC sentences, long enough for every round.")
    var drive: String

    @Option(help: "Playback speed (times the recorded pace).")
    var speed = 20.0

    @Option(help: "log.commit_interval, seconds. Default: trackd's own (1).")
    var commitInterval: Double?

    @Option(help: "log.resume_within, seconds.")
    var resumeWithin = 300.0

    @Option(help: "Kill up to this many seconds after trackd's first fix. Default: the commit interval + 2.")
    var maxLife: Double?

    @Option(help: "Goal: accepted track missing before a kill, at most this many seconds at the real pace.")
    var lossGoal = 1.5

    @Option(help: "Folder for the state, slices and copies (kept). Default: a new temporary folder.")
    var work: String?

    @Option(help: "Write the rounds and the summary as JSON to this file.")
    var report: String?

    @Option(help: "trackd to run. Default: beside trackbench, else the root package's build (.build/release for a release trackbench).")
    var trackd: String?

    @Option(help: "trackctl for verify. Default: beside trackbench, else the root package's build (.build/release for a release trackbench).")
    var trackctl: String?

    func run() async throws {
        let work = try work ?? makeTemporaryFolder()
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let recording = try RecordedDrive(path: URL(fileURLWithPath: drive).standardizedFileURL.path)
        var harness = PowerCutHarness(settings: .init(
            trackd: trackd ?? ProductPaths.program("trackd"), trackctl: trackctl ?? ProductPaths.program("trackctl"), drive: recording,
            work: work, seed: seed, rounds: rounds, speed: speed, commitInterval: commitInterval,
            resumeWithin: resumeWithin, maxLife: maxLife ?? (commitInterval ?? 1) + 2))
        let started = ContinuousClock.now
        let results = try await harness.run { round in
            let loss = String(format: "%.2f s (%.0f GPS s)", round.missingWallSeconds, round.missingGPSSeconds)
            FileHandle.standardError.write(Data((
                "round \(round.round): \(round.expected) → \(round.outcome), killed \(String(format: "%.2f", round.killAfter)) s "
                + "after the first fix, \(round.trips) trips, missing \(loss)"
                + (round.violations.isEmpty ? "" : "  VIOLATED: \(round.violations.joined(separator: " | "))") + "\n").utf8))
        }
        let elapsed = ContinuousClock.now - started
        let summary = PowerCutSummary(results: results, settings: harness.settings, lossGoal: lossGoal,
                                      seconds: Double(elapsed.components.seconds), work: work)
        print(summary.text)
        if let report {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try encoder.encode(PowerCutReport(summary: summary, rounds: results)).write(to: URL(fileURLWithPath: report))
        }
        if !summary.passed { throw ExitCode(1) }
    }

    private func makeTemporaryFolder() throws -> String {
        let path = "\(NSTemporaryDirectory())/trackbench-power-cuts-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
