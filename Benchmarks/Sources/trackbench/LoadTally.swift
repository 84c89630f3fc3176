/// What a crowd of clients got: the round-trip time of every answered request, and what went wrong.
struct LoadTally: Sendable {
    /// Round trips of the requests answered with a result, sorted.
    var latencies: [Duration] = []
    var sent = 0
    var answered = 0
    /// Answers that were errors, and clients that failed (connection refused or closed), with the first few messages.
    var errors = 0
    var messages: [String] = []

    mutating func add(_ other: LoadTally) {
        latencies += other.latencies
        sent += other.sent
        answered += other.answered
        errors += other.errors
        messages += other.messages.prefix(max(0, 10 - messages.count))
    }

    mutating func note(_ message: String) {
        errors += 1
        if messages.count < 10 { messages.append(message) }
    }
}
