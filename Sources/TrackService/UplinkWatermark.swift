import TrackCore
import TrackStore

/// An uplink's watermark as last written to the log, and the rule for writing it again: when it moved and
/// `watermarkInterval` has passed, or at once when asked (a lost connection, a stop).
struct UplinkWatermark {
    let log: MileageLog
    let transport: String
    private(set) var saved: UplinkCursor
    private var savedAt: MonotonicInstant

    init(log: MileageLog, transport: String, saved: UplinkCursor, now: MonotonicInstant) {
        self.log = log
        self.transport = transport
        self.saved = saved
        savedAt = now
    }

    /// Writes `cursor` when due (or `force`).
    mutating func save(_ cursor: UplinkCursor, interval: Double, now: MonotonicInstant,
                       force: Bool = false) async throws(StoreError) {
        guard cursor != saved, force || now.seconds(since: savedAt) >= interval else { return }
        try await log.saveUplinkCursor(cursor, transport: transport)
        saved = cursor
        savedAt = now
    }
}
