import Logging
import Synchronization

/// A log handler that keeps every record it is given, whatever its level, for tests that read what was logged.
public struct RecordingLogHandler: LogHandler {
    /// The records, shared by every copy of the handler.
    public final class Records: Sendable {
        private let events = Mutex<[LogEvent]>([])

        public init() {}

        fileprivate func append(_ event: LogEvent) {
            events.withLock { $0.append(event) }
        }

        /// Every record so far, in the order they were logged.
        public var all: [LogEvent] { events.withLock { $0 } }

        /// The records with this message.
        public func records(_ message: String) -> [LogEvent] {
            all.filter { $0.message.description == message }
        }
    }

    public let records: Records
    public var logLevel: Logger.Level = .trace
    public var metadata: Logger.Metadata = [:]

    public init(records: Records) {
        self.records = records
    }

    /// A logger whose records end up in `records`.
    public static func logger(label: String = "trackd.test") -> (Logger, Records) {
        let records = Records()
        var logger = Logger(label: label) { _ in RecordingLogHandler(records: records) }
        logger.logLevel = .trace
        return (logger, records)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        event.metadata = metadata.merging(event.metadata ?? [:]) { _, explicit in explicit }
        records.append(event)
    }
}

extension LogEvent {
    /// A metadata value as text.
    public subscript(key: String) -> String? {
        metadata?[key].map { "\($0)" }
    }
}
