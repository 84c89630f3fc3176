import Logging

/// A swift-log handler that sends each record to the systemd journal as native fields: `MESSAGE`, `PRIORITY`,
/// `SYSLOG_IDENTIFIER`, `CODE_FILE`/`CODE_LINE`/`CODE_FUNC`, the logger's label as `TRACKD_LOGGER`, and every
/// metadata key as a field of its own (`trip_id` → `TRIP_ID`, `message_id` → `MESSAGE_ID`). A record the journal
/// refuses is written to standard error as a plain line instead.
public struct JournalLogHandler: LogHandler {
    /// The logger's label, sent as `TRACKD_LOGGER`.
    public let label: String
    /// The program name the journal shows and `journalctl -t` selects (`SYSLOG_IDENTIFIER`).
    public let identifier: String
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?

    public init(label: String, identifier: String = "trackd",
                metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider) {
        self.label = label
        self.identifier = identifier
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        do {
            try Journal.send(fields(for: event))
        } catch {
            var fallback = StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
            fallback.logLevel = .trace
            fallback.metadata = metadata
            fallback.log(event: event)
        }
    }

    /// The record's journal fields, in the order they are sent: the handler's own, then the metadata by key (the
    /// handler's, the provider's, the call's, each overriding the one before; an attached error as `error.message`
    /// and `error.type`, as swift-log's stream handler names them).
    public func fields(for event: LogEvent) -> [JournalField] {
        var fields = [
            JournalField("MESSAGE", event.message.description),
            JournalField("PRIORITY", "\(event.level.syslogPriority)"),
            JournalField("SYSLOG_IDENTIFIER", identifier),
            JournalField("CODE_FILE", event.file),
            JournalField("CODE_LINE", "\(event.line)"),
            JournalField("CODE_FUNC", event.function),
            JournalField("TRACKD_LOGGER", label),
        ]
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, provided in provided } }
        if let explicit = event.metadata { merged.merge(explicit) { _, explicit in explicit } }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            fields.append(JournalField(metadataKey: key, value: "\(value)"))
        }
        return fields
    }
}
