import Foundation

/// What a power-cut run comes to: the settings, the outcomes, the worst and typical loss, and PASS or FAIL.
struct PowerCutSummary: Codable {
    /// A distribution of loss figures, seconds.
    struct Spread: Codable {
        var rounds: Int
        var max: Double
        var p99: Double
        var p90: Double
        var median: Double
        var mean: Double

        init(_ values: [Double]) {
            let sorted = values.sorted()
            rounds = sorted.count
            func at(_ p: Double) -> Double {
                sorted.isEmpty ? 0 : sorted[Swift.min(sorted.count - 1, Swift.max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
            }
            max = sorted.last ?? 0
            p99 = at(0.99)
            p90 = at(0.90)
            median = at(0.5)
            mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
        }

        var line: String {
            String(format: "max %.2f, p99 %.2f, p90 %.2f, median %.2f, mean %.2f (%d kills)", max, p99, p90, median, mean, rounds)
        }
    }

    var seed: UInt64
    var rounds: Int
    var drive: String
    var speed: Double
    var commitInterval: Double?
    var resumeWithin: Double
    var maxLife: Double
    var seconds: Double
    var outcomes: [String: Int]
    var trips: Int
    var integrityOK: Int
    var violations: [String]
    /// Missing accepted track, wall seconds (= seconds at the real pace), over all kills and over kills while moving.
    var lossAll: Spread
    var lossMoving: Spread
    /// The same in GPS seconds of the drive.
    var lossGPS: Spread
    var worstRound: Int?
    var lossGoal: Double
    var overGoal: Int
    var passed: Bool
    var work: String

    init(results: [PowerCutRound], settings: PowerCutHarness.Settings, lossGoal: Double, seconds: Double, work: String) {
        seed = settings.seed
        rounds = settings.rounds
        drive = settings.drive.path
        speed = settings.speed
        commitInterval = settings.commitInterval
        resumeWithin = settings.resumeWithin
        maxLife = settings.maxLife
        self.seconds = seconds
        self.work = work
        self.lossGoal = lossGoal
        outcomes = results.reduce(into: [:]) { $0[$1.outcome, default: 0] += 1 }
        trips = results.last?.trips ?? 0
        integrityOK = results.filter { !$0.violations.contains { $0.hasPrefix("integrity_check") || $0.hasPrefix("unreadable") } }.count
        violations = results.flatMap { round in round.violations.map { "round \(round.round): \($0)" } }
        let kills = results.filter { !$0.outcome.hasPrefix("final") }
        lossAll = Spread(kills.map(\.missingWallSeconds))
        lossMoving = Spread(kills.filter(\.movingAtKill).map(\.missingWallSeconds))
        lossGPS = Spread(kills.map(\.missingGPSSeconds))
        worstRound = kills.max { $0.missingWallSeconds < $1.missingWallSeconds }?.round
        overGoal = kills.filter { $0.missingWallSeconds > lossGoal }.count
        passed = violations.isEmpty && overGoal == 0 && results.count == settings.rounds + 1
    }

    var text: String {
        var lines: [String] = []
        let interval = commitInterval.map { String(format: "%g s", $0) } ?? "trackd's default (1 s)"
        lines.append("power cuts: \(rounds) kills with seed \(seed), then an orderly stop; \(drive) at \(String(format: "%g", speed))×")
        lines.append("  commit_interval \(interval), resume_within \(String(format: "%g", resumeWithin)) s, "
                     + "kills 0–\(String(format: "%g", maxLife)) s after trackd's first fix; took \(Int(seconds)) s")
        lines.append("  outcomes: " + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        lines.append("  trips in the log at the end: \(trips); integrity_check ok after \(integrityOK) of \(rounds + 1) rounds")
        lines.append("  accepted track missing before a kill, seconds at the real pace (GPS seconds ÷ \(String(format: "%g", speed))):")
        lines.append("    all kills:          \(lossAll.line)")
        lines.append("    kills while moving: \(lossMoving.line)")
        lines.append("    in GPS seconds:     \(lossGPS.line)")
        if let worstRound { lines.append("    worst: round \(worstRound)") }
        let goal = String(format: "%g", lossGoal)
        lines.append("  loss goal ≤ \(goal) s: " + (overGoal == 0 ? "met" : "NOT MET in \(overGoal) of \(lossAll.rounds) kills"))
        if violations.isEmpty {
            lines.append("  invariants: all held (integrity, no trip lost or duplicated, resumed/closed as documented, verify)")
        } else {
            lines.append("  invariants: \(violations.count) VIOLATED")
            for violation in violations.prefix(40) { lines.append("    \(violation)") }
        }
        lines.append("  state, copies and logs: \(work)")
        lines.append(passed ? "PASS" : "FAIL")
        return lines.joined(separator: "\n")
    }
}
