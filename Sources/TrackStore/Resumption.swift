import TrackCore

/// A trip carried on after a power cut, as the log records it with the first track points after the cut: the
/// outage from the last stored point to the fix that decided, and the `resumed` event.
public struct Resumption: Sendable, Hashable {
    public var gap: GapReport
    /// GPS time of the fix that decided.
    public var time: UTCTime
    /// The `resumed` event's text.
    public var detail: String

    public init(gap: GapReport, time: UTCTime, detail: String) {
        self.gap = gap
        self.time = time
        self.detail = detail
    }
}
