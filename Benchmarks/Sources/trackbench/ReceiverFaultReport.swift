/// The JSON report of `trackbench receiver-faults`: every scenario with its checks, figures and what `status`
/// showed, and how trackd ended.
struct ReceiverFaultReport: Codable {
    var seed: UInt64
    var speed: Double
    var scenarios: [ReceiverFaultScenario]
    /// trackd's exit status at SIGTERM, once stopped.
    var exitStatus: Int32?
    /// Wall-clock seconds the run took.
    var seconds: Double
    var passed: Bool { scenarios.allSatisfy(\.passed) }
}
