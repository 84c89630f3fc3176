import Logging

/// A log handler whose level is the process's `LogLevelSwitch` rather than its own: it passes each record at or
/// above that level to the handler it wraps.
public struct SwitchedLevelHandler<Base: LogHandler>: LogHandler {
    private var base: Base
    private let levels: LogLevelSwitch

    public init(_ base: Base, levels: LogLevelSwitch) {
        self.base = base
        self.levels = levels
    }

    /// The switch's level; setting it changes the level of every logger in the process.
    public var logLevel: Logger.Level {
        get { levels.level }
        set { levels.level = newValue }
    }

    public var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        base.log(event: event)
    }
}
