/// The JSON report: the summary and every round.
struct PowerCutReport: Codable {
    var summary: PowerCutSummary
    var rounds: [PowerCutRound]
}
