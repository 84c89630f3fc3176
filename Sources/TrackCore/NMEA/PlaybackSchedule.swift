/// When each sentence of a recorded log is due if the log is played at `speed` times its recorded pace.
///
/// The pace comes from the sentences' own UTC times: the first timed sentence is due at once, a later one
/// `(its time − the first time) / speed` seconds after the start. Unstamped sentences are due with the last
/// stamped one. Sentences carry the time of day only, so the days are counted: a time more than twelve hours
/// before the last one is the next day's (midnight passed). A time that runs back before the reference (a receiver
/// restart, a spliced log) starts a new reference at that sentence instead of waiting.
public struct PlaybackSchedule: Sendable {
    /// Multiple of the recorded pace; 0 plays as fast as possible.
    public let speed: Double
    /// The reference: the time (nanoseconds, days counted from the first sentence's) and when it was due.
    private var anchorTime: Int64?
    private var anchorDue: Double = 0
    private var lastDue: Double = 0
    /// The last stamped sentence's time, days counted, and the days passed so far (nanoseconds).
    private var lastTime: Int64?
    private var days: Int64 = 0

    public init(speed: Double) {
        self.speed = speed
    }

    /// Seconds after the start at which a sentence stamped `timeOfDay` (nanoseconds since midnight) is due.
    public mutating func due(timeOfDay: Int64?) -> Double {
        guard speed > 0 else { return 0 }
        guard let timeOfDay else { return lastDue }
        var time = days + timeOfDay
        if let lastTime, time < lastTime - UTCTime.nanosecondsPerDay / 2 {   // past midnight
            days += UTCTime.nanosecondsPerDay
            time += UTCTime.nanosecondsPerDay
        }
        lastTime = time
        guard let anchor = anchorTime, time >= anchor else {
            anchorTime = time
            anchorDue = lastDue
            return lastDue
        }
        lastDue = max(lastDue, anchorDue + Double(time - anchor) / 1e9 / speed)
        return lastDue
    }

    /// The UTC time of day a framed sentence is stamped with, without decoding the rest of it.
    public static func timeOfDay(of sentence: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard case .sentence(let decoded) = NMEASentence.parse(sentence) else { return nil }
        return decoded.timeOfDay
    }
}
