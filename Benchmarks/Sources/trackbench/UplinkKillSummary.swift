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

    var passed: Bool { missingPoints == 0 && missingTripMessages == 0 && pointsInLog > 0 }

    var text: String {
        """
        uplink-kills: \(passed ? "PASS" : "FAIL")
          \(kills) SIGKILLs (\(brokerDownRounds) rounds began with the broker down), then an orderly stop
          log: \(pointsInLog) points, \(trips) GPS trips
          received: \(messagesReceived) messages, \(uniqueReceived) distinct, \(duplicates) repeats
          missing: \(missingPoints) points, \(missingTripMessages) trip starts or ends\(firstMissing.isEmpty ? "" : " (\(firstMissing.joined(separator: ", ")))")
          drained in \(Int(drainSeconds)) s after the last start
        """
    }
}
