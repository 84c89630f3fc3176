import Logging
import TrackCore
import TrackStore

/// An uplink's watermark as last written to the log, and the rule for writing it again: when it moved and
/// `watermarkInterval` has passed, or at once when asked (a lost connection, a stop). Between those writes every
/// acknowledgement goes to the runtime mark (`UplinkMarkFile`), so that a restart without a power cut sends again
/// only what was in flight.
struct UplinkWatermark {
    let log: MileageLog
    let transport: String
    private(set) var saved: UplinkCursor
    private var savedAt: MonotonicInstant
    private let markFile: UplinkMarkFile?

    /// Where `transport` resumes: the log's watermark, or past it what the mark in `markFolder` says was
    /// acknowledged before a restart.
    static func resume(log: MileageLog, transport: String, markFolder: String?, logger: Logger,
                       now: MonotonicInstant) async -> (UplinkWatermark, UplinkMark) {
        let saved = (try? await log.uplinkCursor(transport)) ?? .origin
        var markFile: UplinkMarkFile?
        if let markFolder {
            do throws(UplinkMarkFile.Unavailable) {
                markFile = try UplinkMarkFile(folder: markFolder, database: log.path, transport: transport)
            } catch {
                logger.info("uplink keeps its acknowledgements in the log alone", metadata: [
                    "transport": "\(transport)", "reason": "\(error)"])
            }
        }
        let mark = markFile?.read()?.resumption(after: saved) ?? UplinkMark(acknowledged: saved)
        if mark.acknowledged != saved || !mark.ahead.isEmpty {
            logger.info("uplink resumes after what was acknowledged before the restart", metadata: [
                "transport": "\(transport)", "log_watermark": "\(saved.lastMessageID(device: ""))",
                "acknowledged": "\(mark.acknowledged.lastMessageID(device: ""))", "ahead": "\(mark.ahead.count)"])
        }
        return (UplinkWatermark(log: log, transport: transport, saved: saved, now: now, markFile: markFile), mark)
    }

    init(log: MileageLog, transport: String, saved: UplinkCursor, now: MonotonicInstant,
         markFile: UplinkMarkFile? = nil) {
        self.log = log
        self.transport = transport
        self.saved = saved
        savedAt = now
        self.markFile = markFile
    }

    /// Keeps what was acknowledged so far in the runtime mark (each acknowledgement; memory, not the card).
    func note(_ mark: UplinkMark) {
        markFile?.write(mark)
    }

    /// Writes `cursor` to the log when due (or `force`).
    mutating func save(_ cursor: UplinkCursor, interval: Double, now: MonotonicInstant,
                       force: Bool = false) async throws(StoreError) {
        guard cursor != saved, force || now.seconds(since: savedAt) >= interval else { return }
        try await log.saveUplinkCursor(cursor, transport: transport)
        saved = cursor
        savedAt = now
    }
}
