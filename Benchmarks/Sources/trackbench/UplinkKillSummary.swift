/// What `trackbench uplink-kills` found: the log against what a subscriber received.
struct UplinkKillSummary: Codable, Sendable {
    var kills: Int
    var brokerDownRounds: Int
    var pointsInLog: Int
    var trips: Int
    var messagesReceived: Int
    var uniqueReceived: Int
    /// Messages received more than once: those the kills cut off in flight or before the watermark was written.
    var duplicates: Int
    var missingPoints: Int
    var missingTripMessages: Int
    var firstMissing: [String]
    /// Seconds from the last start with the broker up to an empty backlog.
    var drainSeconds: Double
    /// Repeats received in each round (a round ends at its kill; the last at the orderly stop).
    var repeatsByRound: [Int]
    /// Whether trackd had a runtime folder in memory for what its uplink acknowledged.
    var memoryMark: Bool

    var passed: Bool { missingPoints == 0 && missingTripMessages == 0 && pointsInLog > 0 }

    var text: String {
        """
        uplink-kills: \(passed ? "PASS" : "FAIL")
          \(kills) SIGKILLs (\(brokerDownRounds) rounds began with the broker down), then an orderly stop
          log: \(pointsInLog) points, \(trips) GPS trips
          received: \(messagesReceived) messages, \(uniqueReceived) distinct, \(duplicates) repeats
          repeats by round: \(repeatsByRound.map(String.init).joined(separator: " ")) (most \(repeatsByRound.max() ?? 0)); \(memoryMark ? "runtime mark in memory" : "no runtime mark: the log's watermark alone")
          missing: \(missingPoints) points, \(missingTripMessages) trip starts or ends\(firstMissing.isEmpty ? "" : " (\(firstMissing.joined(separator: ", ")))")
          drained in \(Int(drainSeconds)) s after the last start
        """
    }
}
