import TrackCore

extension UplinkConfiguration {
    /// Seconds to wait before the next attempt after `failures` in a row: `reconnectMin` doubling up to
    /// `reconnectMax` (a minute at least for a refusal), drawn between half and all of it so that a fleet does not
    /// come back at once.
    func reconnectWait(afterFailures failures: Int, refused: Bool = false) -> Double {
        let base = refused ? max(60, reconnectMin) : reconnectMin
        let delay = min(reconnectMax, base * Double(1 << min(max(failures, 1) - 1, 16)))
        return delay * Double.random(in: 0.5...1)
    }
}
