import TrackCore

extension UplinkConfiguration {
    /// Seconds to wait before the next attempt after `failures` in a row: `reconnectMin` doubling up to
    /// `reconnectMax`, drawn between half and all of it so that a fleet does not come back at once; after a refusal
    /// (a wrong password, say) a minute at least, whatever `reconnectMax`, so that the broker is not pressed with
    /// credentials it refused.
    func reconnectWait(afterFailures failures: Int, refused: Bool = false) -> Double {
        let delay = min(reconnectMax, reconnectMin * Double(1 << min(max(failures, 1) - 1, 16)))
        let drawn = delay * Double.random(in: 0.5...1)
        return refused ? max(60, drawn) : drawn
    }
}
