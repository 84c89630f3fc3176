import Logging
import Synchronization

/// A log handler that keeps every record it is given, for tests that read what the tracker logged.
struct RecordingLogHandler: LogHandler {
    /// The records, shared by every copy of the handler.
    final class Records: Sendable {
        private let events = Mutex<[LogEvent]>([])

        fileprivate func append(_ event: LogEvent) {
            events.withLock { $0.append(event) }
        }

        /// Every record so far, in the order they were logged.
        var all: [LogEvent] { events.withLock { $0 } }

        /// The records with this message.
        func records(_ message: String) -> [LogEvent] {
            all.filter { $0.message.description == message }
        }
    }

    let records: Records
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    /// A logger whose records end up in `records`.
    static func logger(label: String = "trackd.test") -> (Logger, Records) {
        let records = Records()
        var logger = Logger(label: label) { _ in RecordingLogHandler(records: records) }
        logger.logLevel = .trace
        return (logger, records)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.metadata = metadata.merging(event.metadata ?? [:]) { _, explicit in explicit }
        records.append(event)
    }
}

extension LogEvent {
    /// A metadata value as text.
    subscript(key: String) -> String? {
        metadata?[key].map { "\($0)" }
    }
}
