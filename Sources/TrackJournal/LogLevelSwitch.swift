import Logging
import Synchronization

/// The least important level trackd logs, shared by every logger of the process, so that a configuration reload
/// changes it for all of them at once.
public final class LogLevelSwitch: Sendable {
    private let current: Mutex<Logger.Level>

    public init(_ level: Logger.Level) {
        current = Mutex(level)
    }

    /// The level now.
    public var level: Logger.Level {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}
