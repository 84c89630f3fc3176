import ArgumentParser

/// `trackbench`: benchmarks and fault harnesses that run against trackd (not tests): the `status` round trip,
/// power cuts, load, receiver failures, and the time to READY.
@main
struct TrackBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trackbench",
        abstract: "Benchmarks and fault harnesses for trackd (not tests).",
        subcommands: [StatusBenchmark.self, PowerCutsCommand.self, LoadCommand.self, ReceiverFaultsCommand.self,
                      ReadyBenchmark.self, UplinkKillsCommand.self],
        defaultSubcommand: StatusBenchmark.self)
}
