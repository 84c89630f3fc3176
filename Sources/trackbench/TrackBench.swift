import ArgumentParser

/// `trackbench`: benchmarks and fault harnesses that run against trackd (not tests): the `status` round trip,
/// power cuts, load, and receiver failures.
@main
struct TrackBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trackbench",
        abstract: "Benchmarks and fault harnesses for trackd (not tests).",
        subcommands: [StatusBenchmark.self, PowerCutsCommand.self, LoadCommand.self, ReceiverFaultsCommand.self],
        defaultSubcommand: StatusBenchmark.self)
}
