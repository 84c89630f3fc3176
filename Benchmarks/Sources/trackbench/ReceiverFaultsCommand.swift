import ArgumentParser
import Foundation
import TestSupport

/// `trackbench receiver-faults`: the receiver-failure harness (issue 7, item 3) with its PASS/FAIL lines.
struct ReceiverFaultsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receiver-faults",
        abstract: "Run trackd on a serial receiver (a pseudo-terminal) that is unplugged, sends garbage, stops mid-sentence and loses its fix.",
        discussion: """
            One trackd, one trip, the scenarios in the order given: unplug (the pseudo-terminal closed and its link \
            removed mid-sentence, a new one plugged in seconds later), garbage (random bytes, overlong lines, bad \
            checksums, binary inside sentences, UBX frames among the epochs), mid-sentence (half a sentence, then \
            silence, then whole epochs again), no-fix (an hour of RMC V / GGA quality 0, then fixes again). Each \
            prints PASS/FAIL lines; after trackd's orderly stop (SIGTERM) the log is checked. Exits 1 on any FAIL.
            """)

    @Option(help: "Seed of the random choices (times, garbage, cuts).")
    var seed: UInt64 = 1

    @Option(help: "The drive, an NMEA file with dated RMC sentences, long enough for every scenario.")
    var drive: String

    @Option(help: "Playback speed (times the recorded pace).")
    var speed = 20.0

    @Option(parsing: .upToNextOption,
            help: "Scenarios, in order: \(ReceiverFaultHarness.scenarioNames.joined(separator: ", ")). Default: all.")
    var scenarios: [String] = ReceiverFaultHarness.scenarioNames

    @Option(help: "Times the receiver is unplugged.")
    var unplugs = 5

    @Option(help: "Wall seconds of garbage.")
    var garbageSeconds = 20.0

    @Option(help: "Stops in the middle of a sentence.")
    var midSentenceStops = 3

    @Option(help: "GPS seconds of \"no fix\".")
    var noFixSeconds = 3600.0

    @Option(help: "engine.fix_loss_after, seconds. Default: trackd's own (30).")
    var fixLossAfter: Double?

    @Option(help: "Folder for the state and the logs (kept). Default: a new temporary folder.")
    var work: String?

    @Option(help: "Write the scenarios, their checks and figures as JSON to this file.")
    var report: String?

    @Option(help: "Write a copy of every byte the receiver sent to this file (for trackctl decode).")
    var capture: String?

    @Option(help: "trackd to run. Default: beside trackbench, else the root package's build (.build/release for a release trackbench).")
    var trackd: String?

    @Option(help: "trackctl for verify. Default: beside trackbench, else the root package's build (.build/release for a release trackbench).")
    var trackctl: String?

    func validate() throws {
        for name in scenarios where !ReceiverFaultHarness.scenarioNames.contains(name) {
            throw ValidationError("unknown scenario '\(name)': use \(ReceiverFaultHarness.scenarioNames.joined(separator: ", "))")
        }
    }

    func run() async throws {
        let work = try work ?? makeTemporaryFolder()
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let recording = try RecordedDrive(path: URL(fileURLWithPath: drive).standardizedFileURL.path)
        let settings = ReceiverFaultHarness.Settings(
            trackd: trackd ?? ProductPaths.program("trackd"), trackctl: trackctl ?? ProductPaths.program("trackctl"), drive: recording,
            work: URL(fileURLWithPath: work).standardizedFileURL.path, seed: seed, speed: speed, scenarios: scenarios,
            unplugs: unplugs, garbageSeconds: garbageSeconds, midSentenceStops: midSentenceStops,
            noFixSeconds: noFixSeconds, fixLossAfter: fixLossAfter, capture: capture)
        // The harness blocks (sleeps between epochs, waits for trackd): a thread of its own.
        let result = try await offload {
            Result { () throws(HarnessError) in
                try ReceiverFaultHarness(settings: settings) { line in FileHandle.standardOutput.write(Data((line + "\n").utf8)) }.run()
            }
        }
        let outcome = try result.get()
        let failed = outcome.scenarios.flatMap(\.checks).filter { !$0.passed }.count
        FileHandle.standardOutput.write(Data(("seed \(seed), \(String(format: "%.0f", outcome.seconds)) s, work \(work): "
            + (failed == 0 ? "PASS" : "FAIL (\(failed))") + "\n").utf8))
        if let report {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try encoder.encode(outcome).write(to: URL(fileURLWithPath: report))
        }
        if failed > 0 { throw ExitCode(1) }
    }

    private func makeTemporaryFolder() throws -> String {
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("trackbench-receiver-faults-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
