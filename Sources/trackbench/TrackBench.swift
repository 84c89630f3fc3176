import ArgumentParser

/// `trackbench`: benchmarks and fault harnesses that run against trackd (not tests): the `status` round trip,
/// power cuts, load, and the time to READY.
@main
struct TrackBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trackbench",
        abstract: "Benchmarks and fault harnesses for trackd (not tests).",
        subcommands: [StatusBenchmark.self, PowerCutsCommand.self, LoadCommand.self, ReadyBenchmark.self],
        defaultSubcommand: StatusBenchmark.self)
}
