/// One scenario of the receiver-fault harness: its checks, its figures, and `status` as it was seen in each phase.
struct ReceiverFaultScenario: Codable {
    /// One thing checked.
    struct Check: Codable {
        /// A stable name, `scenario.what` (tests look checks up by it).
        var id: String
        var passed: Bool
        /// What was checked, with the figures.
        var text: String
    }

    /// `start`, `unplug`, `garbage`, `mid-sentence`, `no-fix`, `stop`.
    var name: String
    var checks: [Check] = []
    /// Counts and measurements, by name.
    var figures: [String: Double] = [:]
    /// `status` in the scenario's phases, one line each ("while unplugged: source lost (…), …").
    var status: [String] = []
    /// GPS time of the first and the last epoch the scenario played (events are attributed by it).
    var firstTime: String?
    var lastTime: String?

    var passed: Bool { checks.allSatisfy(\.passed) }

    init(name: String) {
        self.name = name
    }
}
