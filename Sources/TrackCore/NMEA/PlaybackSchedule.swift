/// When each sentence of a recorded log is due if the log is played at `speed` times its recorded pace.
///
/// The pace comes from the sentences' own UTC times: the first timed sentence is due at once, a later one
/// `(its time − the first time) / speed` seconds after the start. Unstamped sentences are due with the last
/// stamped one. A time that runs backwards (a receiver restart, a spliced log) or wraps at midnight starts a new
/// reference at that sentence instead of waiting a day.
public struct PlaybackSchedule: Sendable {
    /// Multiple of the recorded pace; 0 plays as fast as possible.
    public let speed: Double
    private var anchorTime: Int64?
    private var anchorDue: Double = 0
    private var lastDue: Double = 0

    public init(speed: Double) {
        self.speed = speed
    }

    /// Seconds after the start at which a sentence stamped `timeOfDay` (nanoseconds since midnight) is due.
    public mutating func due(timeOfDay: Int64?) -> Double {
        guard speed > 0 else { return 0 }
        guard let timeOfDay else { return lastDue }
        guard let anchor = anchorTime else {
            anchorTime = timeOfDay
            anchorDue = lastDue
            return lastDue
        }
        var elapsed = timeOfDay - anchor
        if elapsed < 0 && elapsed < -UTCTime.nanosecondsPerDay / 2 {
            elapsed += UTCTime.nanosecondsPerDay  // past midnight
        }
        if elapsed < 0 {
            anchorTime = timeOfDay
            anchorDue = lastDue
            return lastDue
        }
        lastDue = max(lastDue, anchorDue + Double(elapsed) / 1e9 / speed)
        return lastDue
    }

    /// The UTC time of day a framed sentence is stamped with, without decoding the rest of it.
    public static func timeOfDay(of sentence: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard case .sentence(let decoded) = NMEASentence.parse(sentence) else { return nil }
        return decoded.timeOfDay
    }
}
