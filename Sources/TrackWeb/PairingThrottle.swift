/// Slows the guessing of pairing codes from one address: the first few wrong codes in a row are answered at once,
/// then each one doubles the wait before the next attempt is even looked at (up to five minutes). A correct code, or
/// a new code made with `trackctl web pair` (someone at the board), starts the count again. `PairingGuard` keeps one
/// for each address, and bounds what guessing from many addresses can win.
struct PairingThrottle: Sendable {
    /// Wrong codes in a row answered without a wait.
    static let freeAttempts = 5
    /// The longest wait.
    static let longestWait: Duration = .seconds(300)

    /// Wrong codes since the last correct one or the last new code.
    private(set) var wrongInARow = 0
    private var nextAttempt: ContinuousClock.Instant?

    /// How long the caller must still wait before a code is looked at; `nil` when it may try now.
    func wait(at now: ContinuousClock.Instant) -> Duration? {
        guard let nextAttempt, now < nextAttempt else { return nil }
        return nextAttempt - now
    }

    /// Counts a wrong code and sets the wait before the next one.
    mutating func recordWrongCode(at now: ContinuousClock.Instant) {
        wrongInARow += 1
        let beyond = wrongInARow - Self.freeAttempts
        guard beyond >= 0 else { return }
        let seconds = min(1 << min(beyond, 16), Int(Self.longestWait.components.seconds))
        nextAttempt = now + .seconds(seconds)
    }

    /// Starts the count again.
    mutating func reset() {
        wrongInARow = 0
        nextAttempt = nil
    }
}
