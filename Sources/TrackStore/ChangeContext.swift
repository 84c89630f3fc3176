import TrackCore

/// Who makes a change and when: every revision carries both.
public struct ChangeContext: Sendable, Hashable {
    /// The Unix user (from the socket's peer credentials in the daemon).
    public var user: String
    public var time: UTCTime
    /// `gps` when the time came from the receiver, `system` when from the system clock.
    public var timeSource: String

    public init(user: String, time: UTCTime, timeSource: String) {
        self.user = user
        self.time = time
        self.timeSource = timeSource
    }
}
