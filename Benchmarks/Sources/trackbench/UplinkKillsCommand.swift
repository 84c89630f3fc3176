import ArgumentParser
import Foundation

/// `trackbench uplink-kills`: the uplink through power cuts and a broker that comes and goes (issue 22).
struct UplinkKillsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uplink-kills",
        abstract: "Kill trackd with SIGKILL at seeded instants while its uplink's broker goes up and down; check that every point arrived.",
        discussion: """
            A real mosquitto on loopback and a subscriber with a persistent session. Each round restarts trackd on \
            the drive where it has got to, with the broker up or down (and maybe changing once), and kills it a \
            drawn instant later. A last round, with the broker up, waits until trackd says its backlog is empty and \
            stops it. Then every point of the log and every trip's start and end must have reached the subscriber; \
            the repeats are counted. Exits 1 when anything is missing.
            """)

    @Option(help: "Seed of the random choices.")
    var seed: UInt64 = 1

    @Option(help: "SIGKILLs.")
    var kills = 20

    @Option(help: "The drive, an NMEA file with dated RMC sentences, long enough for every round.")
    var drive: String

    @Option(help: "Playback speed (times the recorded pace).")
    var speed = 20.0

    @Option(help: "Kill up to this many seconds after trackd is up.")
    var maxLife = 6.0

    @Option(help: "uplink.watermark_interval, seconds. Default: trackd's own.")
    var watermarkInterval: Double?

    @Flag(help: "Give trackd no runtime folder in memory, so that it resumes from the log's watermark alone (as after a power cut).")
    var noMemoryMark = false

    @Option(help: "Folder for the state, the broker and the subscriber's output (kept). Default: a new temporary folder.")
    var work: String?

    @Option(help: "Write the summary as JSON to this file.")
    var report: String?

    @Option(help: "trackd to run. Default: beside trackbench, else the root package's build.")
    var trackd: String?

    @Option(help: "trackctl for status. Default: beside trackbench, else the root package's build.")
    var trackctl: String?

    func run() async throws {
        let work = try work ?? makeTemporaryFolder()
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let recording = try RecordedDrive(path: URL(fileURLWithPath: drive).standardizedFileURL.path)
        var harness = UplinkKillHarness(settings: .init(
            trackd: trackd ?? ProductPaths.program("trackd"), trackctl: trackctl ?? ProductPaths.program("trackctl"),
            drive: recording, work: work, seed: seed, kills: kills, speed: speed, maxLife: maxLife,
            watermarkInterval: watermarkInterval, memoryMark: !noMemoryMark))
        let summary = try await harness.run { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
        print(summary.text)
        if let report {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try encoder.encode(summary).write(to: URL(fileURLWithPath: report))
        }
        if !summary.passed { throw ExitCode(1) }
    }

    private func makeTemporaryFolder() throws -> String {
        let path = "\(NSTemporaryDirectory())/trackbench-uplink-kills-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
