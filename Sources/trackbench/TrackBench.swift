import ArgumentParser

/// `trackbench`: benchmarks and fault harnesses that run against trackd (not tests): the `status` round trip,
/// power cuts, and load.
@main
struct TrackBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trackbench",
        abstract: "Benchmarks and fault harnesses for trackd (not tests).",
        subcommands: [StatusBenchmark.self, PowerCutsCommand.self, LoadCommand.self],
        defaultSubcommand: StatusBenchmark.self)
}
